/**
 * `--output-format stream-json` and `--input-format stream-json` (issue 30 §1, issue 42), on the
 * built CLI: every stdout line is one JSON object in Claude Code's shapes (init first; an
 * assistant message per reply with its tool_use blocks; a user message with the tool_result
 * answering each id; the result with Claude Code's fields, cost from the price table, permission
 * denials), the stream events only with --include-partial-messages and then the whole sequence,
 * the result line is `--output-format json`'s object, turns come from stdin one after another,
 * malformed lines get error lines, approvals are answered in-band, a reader that stops reading
 * holds the turn back instead of growing the agent, and control characters stay escaped.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, cliArgs, cliFixture, type RunResult, testEnv } from './harness.js';
import { type Line, linesOf, userLine as user } from './stream-json-lines.js';

const fx = cliFixture({ env: { GEEKAGENT_SANDBOX: 'off' } });

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

const kinds = (lines: Line[]) =>
  lines.map((line) => (line.subtype ? `${line.type}/${line.subtype}` : line.type));

/** A CLI run we talk to: lines as they come, stdin written on demand. */
interface Live {
  child: ChildProcessWithoutNullStreams;
  lines: Line[];
  /** Resolves with the first line (from `from` on) that matches. */
  next(match: (line: Line) => boolean, from?: number): Promise<Line>;
  send(text: string): void;
  done: Promise<RunResult>;
}

function live(args: string[], trusted = true): Live {
  const child = spawn(process.execPath, [CLI, ...cliArgs(args, trusted)], {
    cwd: fx.project.dir,
    env: testEnv({ project: fx.project, modelUrl: fx.fake.url, env: { GEEKAGENT_SANDBOX: 'off' } }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: Line[] = [];
  const waiters = new Set<() => void>();
  let stdout = '';
  let stderr = '';
  let partial = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    for (const part of parts) lines.push(JSON.parse(part) as Line);
    for (const wake of waiters) wake();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<RunResult>((resolve) =>
    child.on('close', (code, signal) => {
      for (const wake of waiters) wake();
      resolve({ code, signal, stdout, stderr });
    }),
  );
  const next = (match: (line: Line) => boolean, from = 0) =>
    new Promise<Line>((resolve, reject) => {
      const check = () => {
        const found = lines.slice(from).find(match);
        if (found) {
          waiters.delete(check);
          resolve(found);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          waiters.delete(check);
          reject(new Error(`exited without the line\nstdout: ${stdout}\nstderr: ${stderr}`));
        }
      };
      waiters.add(check);
      check();
    });
  return { child, lines, next, send: (text) => child.stdin.write(text), done };
}

/** The `tool_use` blocks of the assistant messages, in order. */
const toolUses = (lines: Line[]): Line[] =>
  lines
    .filter((line) => line.type === 'assistant')
    .flatMap((line) => line.message.content as Line[])
    .filter((block) => block.type === 'tool_use');

/** The `user` line answering call `id` (its tool_result block first). */
const resultFor = (lines: Line[], id: string): Line | undefined =>
  lines.find((line) => line.type === 'user' && line.message.content[0]?.tool_use_id === id);

/** Stream events by name, a run of deltas of one block as one `…_delta×`. */
function eventNames(lines: Line[]): string[] {
  const names: string[] = [];
  for (const line of lines) {
    if (line.type !== 'stream_event') {
      names.push(line.type);
      continue;
    }
    const event = line.event;
    const name =
      event.type === 'content_block_start'
        ? `start ${event.index} ${event.content_block.type}`
        : event.type === 'content_block_delta'
          ? `${event.delta.type} ${event.index}`
          : event.type === 'content_block_stop'
            ? `stop ${event.index}`
            : event.type;
    if (names.at(-1) !== name) names.push(name);
  }
  return names;
}

describe('--output-format stream-json', () => {
  it("writes Claude Code's messages: init, assistant with tool_use, user with tool_result, result; json prints the same result", async () => {
    const script = () =>
      fx.fake.push(
        { reasoning: 'Look first.', toolCalls: [call('ls', { path: '.' })] },
        { text: 'There is one file.' },
      );
    await fx.project.write('a.txt', 'hi\n');
    script();
    const run = await fx.run([
      '-p',
      'what is here',
      '--output-format',
      'stream-json',
      '--verbose',
      '--allow',
      'ls',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const lines = linesOf(run);
    // No stream events without --include-partial-messages, and no lines of our own kinds.
    expect(kinds(lines)).toEqual(['system/init', 'assistant', 'user', 'assistant', 'result/success']);

    const init = lines[0]!;
    expect(init).toMatchObject({ model: 'fake-model', provider: 'openai', cwd: fx.project.dir });
    expect(init.tools).toContain('ls');
    expect(init.slash_commands).toContain('help');
    expect(init.session_id).toMatch(/\S/);
    expect(init.mcp_servers).toEqual([]);
    // Every line: its own uuid and the session; every message: parent_tool_use_id.
    const uuids = lines.map((line) => line.uuid);
    expect(new Set(uuids).size).toBe(lines.length);
    for (const uuid of uuids)
      expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    for (const line of lines) expect(line.session_id).toBe(init.session_id);
    for (const line of lines.slice(1, -1)) expect(line.parent_tool_use_id).toBeNull();

    const [, first, answer, second, result] = lines as [Line, Line, Line, Line, Line];
    const use = toolUses(lines)[0]!;
    expect(first.message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'fake-model',
      stop_reason: 'tool_use',
      stop_sequence: null,
      content: [
        { type: 'thinking', thinking: 'Look first.', signature: '' },
        { type: 'tool_use', id: use.id, name: 'ls', input: { path: '.' } },
      ],
    });
    expect(first.message.id).toMatch(/^msg_/);
    expect(Object.keys(first.message.usage)).toEqual(
      expect.arrayContaining(['input_tokens', 'output_tokens', 'cache_read_input_tokens']),
    );
    // The call's result answers its id; our own facts ride along.
    expect(answer.message.role).toBe('user');
    expect(answer.message.content).toHaveLength(1);
    expect(answer.message.content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: use.id,
      is_error: false,
    });
    expect(answer.message.content[0].content).toContain('a.txt');
    expect(answer.tool_use_result).toContain('a.txt');
    expect(answer).toMatchObject({ tool_name: 'ls', decision: 'allow' });
    expect(typeof answer.duration_ms).toBe('number');
    expect(second.message).toMatchObject({
      stop_reason: 'end_turn',
      content: [{ type: 'text', text: 'There is one file.' }],
    });
    expect(second.message.id).not.toBe(first.message.id);

    expect(result).toMatchObject({
      subtype: 'success',
      is_error: false,
      exit_reason: 'completed',
      result: 'There is one file.',
      num_turns: 2,
      stop_reason: 'end_turn',
      // An unknown model costs nothing: only the price table's models have a cost.
      total_cost_usd: 0,
      permission_denials: [],
      session_id: init.session_id,
    });
    expect(result.duration_api_ms).toBeGreaterThanOrEqual(0);
    expect(result.duration_api_ms).toBeLessThanOrEqual(result.duration_ms);
    expect(Object.keys(result.usage)).toEqual(
      expect.arrayContaining([
        'input_tokens',
        'output_tokens',
        'cache_read_input_tokens',
        'cache_creation_input_tokens',
      ]),
    );
    expect(result.modelUsage['fake-model']).toMatchObject({
      inputTokens: result.usage.input_tokens,
      outputTokens: result.usage.output_tokens,
      cacheReadInputTokens: 0,
      costUSD: 0,
    });

    // The same script with --output-format json: the same object (but for times, session and uuid).
    script();
    const json = await fx.run(['-p', 'what is here', '--output-format', 'json', '--allow', 'ls']);
    expect(json.code, json.stderr).toBe(0);
    const single = JSON.parse(json.stdout) as Line;
    const comparable = ({ duration_ms, duration_api_ms, session_id, uuid, ...rest }: Line) => {
      expect(typeof duration_ms).toBe('number');
      expect(typeof duration_api_ms).toBe('number');
      expect(typeof session_id).toBe('string');
      expect(typeof uuid).toBe('string');
      return rest;
    };
    expect(comparable(result)).toEqual(comparable(single));
  });

  it("--include-partial-messages adds each reply's whole stream event sequence", async () => {
    fx.fake.push(
      { reasoning: 'Look first.', text: 'Listing.', toolCalls: [call('ls', { path: '.' })] },
      { text: 'There is one file.' },
    );
    await fx.project.write('a.txt', 'hi\n');
    const run = await fx.run([
      '-p',
      'what is here',
      '--output-format',
      'stream-json',
      '--verbose',
      '--include-partial-messages',
      '--allow',
      'ls',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const lines = linesOf(run);
    expect(eventNames(lines)).toEqual([
      'system',
      'message_start',
      'start 0 thinking',
      'thinking_delta 0',
      'stop 0',
      'start 1 text',
      'text_delta 1',
      'stop 1',
      'start 2 tool_use',
      'input_json_delta 2',
      'stop 2',
      'assistant',
      'message_delta',
      'message_stop',
      'user',
      'message_start',
      'start 0 text',
      'text_delta 0',
      'stop 0',
      'assistant',
      'message_delta',
      'message_stop',
      'result',
    ]);
    const events = lines.filter((line) => line.type === 'stream_event');
    for (const line of events) {
      expect(line.parent_tool_use_id).toBeNull();
      expect(line.uuid).toMatch(/\S/);
    }
    const assistants = lines.filter((line) => line.type === 'assistant');
    const starts = events.filter((line) => line.event.type === 'message_start');
    expect(starts.map((line) => line.event.message.id)).toEqual(assistants.map((line) => line.message.id));
    expect(starts[0]!.event.message).toMatchObject({ role: 'assistant', model: 'fake-model', content: [] });
    const use = toolUses(lines)[0]!;
    const toolStart = events.find((line) => line.event.content_block?.type === 'tool_use')!;
    expect(toolStart.event.content_block).toEqual({ type: 'tool_use', id: use.id, name: 'ls', input: {} });
    const json = events.find((line) => line.event.delta?.type === 'input_json_delta')!;
    expect(JSON.parse(json.event.delta.partial_json)).toEqual({ path: '.' });
    const deltas = (type: string, field: string) =>
      events
        .filter((line) => line.event.delta?.type === type)
        .map((line) => line.event.delta[field])
        .join('');
    expect(deltas('thinking_delta', 'thinking')).toBe('Look first.');
    expect(deltas('text_delta', 'text')).toBe('Listing.There is one file.');
    const ends = events.filter((line) => line.event.type === 'message_delta');
    expect(ends.map((line) => line.event.delta)).toEqual([
      { stop_reason: 'tool_use', stop_sequence: null },
      { stop_reason: 'end_turn', stop_sequence: null },
    ]);
    expect(ends[1]!.event.usage.output_tokens).toBeGreaterThan(0);
  });

  it('refuses a tool that needs a question without stream input (a permission denial), and prices a known model', async () => {
    const usage = { prompt_tokens: 2_000, completion_tokens: 100, cached_tokens: 1_000 };
    fx.fake.push(
      { toolCalls: [call('write', { path: 'x.txt', content: 'x' })], usage },
      { text: 'could not', usage },
    );
    const run = await fx.run([
      '-p',
      'write it',
      '--output-format',
      'stream-json',
      '--model',
      'claude-sonnet-4-5',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const lines = linesOf(run);
    const use = toolUses(lines)[0]!;
    expect(use).toMatchObject({ name: 'write', input: { path: 'x.txt', content: 'x' } });
    const answer = resultFor(lines, use.id)!;
    expect(answer).toMatchObject({ decision: 'refused', tool_name: 'write' });
    expect(answer.message.content[0].is_error).toBe(true);
    expect(answer.message.content[0].content).toContain('--allow write');
    expect(answer.tool_use_result).toMatch(/^Error: .*--allow write/s);
    expect(existsSync(path.join(fx.project.dir, 'x.txt'))).toBe(false);

    const result = lines.at(-1)!;
    expect(result.permission_denials).toEqual([
      { tool_name: 'write', tool_use_id: use.id, tool_input: { path: 'x.txt', content: 'x' } },
    ]);
    // Two rounds at $3 / $0.30 (cache reads) / $15 per million tokens.
    const cost = (2 * 1_000 * 3 + 2 * 1_000 * 0.3 + 2 * 100 * 15) / 1_000_000;
    expect(result.total_cost_usd).toBeCloseTo(cost, 10);
    expect(result.usage).toMatchObject({
      input_tokens: 2_000,
      cache_read_input_tokens: 2_000,
      output_tokens: 200,
    });
    expect(result.modelUsage).toEqual({
      'claude-sonnet-4-5': {
        inputTokens: 2_000,
        outputTokens: 200,
        cacheReadInputTokens: 2_000,
        cacheCreationInputTokens: 0,
        webSearchRequests: 0,
        costUSD: result.total_cost_usd,
        contextWindow: expect.any(Number),
      },
    });
  });

  it("reports the todo list and a sub-agent's progress as they happen", async () => {
    fx.fake.push(
      { toolCalls: [call('todo_write', { todos: [{ content: 'look around', status: 'in_progress' }] })] },
      { toolCalls: [call('delegate_task', { task: 'look around', agent: 'explore' })] },
      { text: 'done' },
    );
    fx.fake.pushFor('explore', { toolCalls: [call('ls', { path: '.' })] }, { text: 'saw it' });
    const run = await fx.run(['-p', 'plan', '--output-format', 'stream-json', '--allow', 'delegate_task']);
    expect(run.code, run.stderr).toBe(0);
    const lines = linesOf(run);
    expect(lines.find((line) => line.subtype === 'todos')!.todos).toEqual([
      { content: 'look around', status: 'in_progress' },
    ]);
    const use = toolUses(lines).find((block) => block.name === 'delegate_task')!;
    const progress = lines.filter((line) => line.type === 'tool_progress' && line.tool_use_id === use.id);
    for (const line of progress) expect(line.elapsed_time_seconds).toBeGreaterThanOrEqual(0);
    expect(progress.map((line) => line.message)).toContain('explore: round 1, running ls');
    const result = resultFor(lines, use.id)!;
    expect(lines.indexOf(result)).toBeGreaterThan(lines.indexOf(progress.at(-1)!));
    expect(result.message.content[0].content).toContain('saw it');
    expect(lines.at(-1)!.agents).toHaveLength(1);
  });

  it('keeps control characters of untrusted text escaped, and the text exact', async () => {
    const evil = 'a\u001b]52;c;aGk=\u0007b\u001b[2J\r\u007f\u0085\u009b\u202e\u2028z';
    await fx.project.write('evil.txt', `${evil}\n`);
    fx.fake.push({ toolCalls: [call('read', { path: 'evil.txt' })] }, { text: evil, reasoning: evil });
    const run = await fx.run([
      '-p',
      'read it',
      '--output-format',
      'stream-json',
      '--include-partial-messages',
    ]);
    expect(run.code, run.stderr).toBe(0);
    // Nothing but printable text and the line breaks between objects.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202e]/);
    const lines = linesOf(run);
    expect(lines.at(-1)!.result).toBe(evil);
    expect(lines.find((line) => line.type === 'user')!.message.content[0].content).toContain(evil);
  });
});

describe('--input-format stream-json', () => {
  it('runs one turn per user line, in one process, the second seeing the first', async () => {
    fx.fake.push({ text: 'first answer' }, { text: 'second answer' });
    const input =
      user('first question') +
      user([
        { type: 'text', text: 'second' },
        { type: 'text', text: 'question' },
      ]);
    const run = await fx.run(['--input-format', 'stream-json', '--output-format', 'stream-json'], { input });
    expect(run.code, run.stderr).toBe(0);
    const lines = linesOf(run);
    expect(kinds(lines).filter((kind) => kind === 'system/init')).toHaveLength(1);
    const results = lines.filter((line) => line.type === 'result');
    expect(results.map((line) => line.result)).toEqual(['first answer', 'second answer']);
    expect(results[0]!.session_id).toBe(results[1]!.session_id);
    expect(fx.fake.requests).toHaveLength(2);
    const second = fx.fake.requests[1]!.body.messages.map((m): [unknown, string] => [
      m.role,
      String(m.content),
    ]);
    expect(second).toContainEqual(['assistant', 'first answer']);
    expect(second.some(([role, content]) => role === 'user' && content.includes('first question'))).toBe(
      true,
    );
    expect(second.some(([role, content]) => role === 'user' && content.includes('second\n\nquestion'))).toBe(
      true,
    );
  });

  it('answers a malformed line with an error line and goes on', async () => {
    fx.fake.push({ text: 'still here' });
    const input = `not json\n${JSON.stringify({ type: 'bogus' })}\n${user('hi')}${JSON.stringify({ type: 'user', message: { content: 3 } })}\n`;
    const run = await fx.run(['--input-format', 'stream-json', '--output-format', 'stream-json'], { input });
    expect(run.code, run.stderr).toBe(0);
    const lines = linesOf(run);
    const errors = lines.filter((line) => line.type === 'system' && line.subtype === 'error');
    expect(errors.map((line) => line.message)).toEqual([
      expect.stringMatching(/^stdin line 1: not JSON/),
      expect.stringMatching(/^stdin line 2: unknown line type "bogus"/),
      expect.stringMatching(/^stdin line 4: a user line is/),
    ]);
    expect(lines.filter((line) => line.type === 'result').map((line) => line.result)).toEqual(['still here']);
  });

  it('asks in-band with control_request: allow runs the call, deny refuses it with the reason', async () => {
    fx.fake.push(
      { toolCalls: [call('write', { path: 'yes.txt', content: 'allowed\n' })] },
      { text: 'wrote it' },
      { toolCalls: [call('write', { path: 'no.txt', content: 'denied\n' })] },
      { text: 'was refused' },
    );
    const run = live(['--input-format', 'stream-json', '--output-format', 'stream-json']);
    run.send(user('write yes.txt'));
    const ask = await run.next((line) => line.type === 'control_request');
    expect(ask.request).toMatchObject({
      subtype: 'can_use_tool',
      tool_name: 'write',
      input: { path: 'yes.txt', content: 'allowed\n' },
    });
    // Nothing ran before the answer.
    expect(existsSync(path.join(fx.project.dir, 'yes.txt'))).toBe(false);
    run.send(
      `${JSON.stringify({
        type: 'control_response',
        response: {
          subtype: 'success',
          request_id: ask.request_id,
          response: { behavior: 'allow', updatedInput: ask.request.input },
        },
      })}\n`,
    );
    const first = await run.next((line) => line.type === 'result');
    expect(first.result).toBe('wrote it');
    expect(await readFile(path.join(fx.project.dir, 'yes.txt'), 'utf8')).toBe('allowed\n');
    expect(run.lines.find((line) => line.type === 'user')).toMatchObject({ decision: 'approved' });

    const mark = run.lines.length;
    run.send(user('write no.txt'));
    const second = await run.next((line) => line.type === 'control_request', mark);
    expect(second.request_id).not.toBe(ask.request_id);
    run.send(
      `${JSON.stringify({
        type: 'control_response',
        response: {
          subtype: 'success',
          request_id: second.request_id,
          response: { behavior: 'deny', message: 'not that file' },
        },
      })}\n`,
    );
    const denied = await run.next((line) => line.type === 'result', mark);
    expect(denied.result).toBe('was refused');
    run.child.stdin.end();
    const done = await run.done;
    expect(done.code, done.stderr).toBe(0);
    expect(existsSync(path.join(fx.project.dir, 'no.txt'))).toBe(false);
    const refusal = run.lines.slice(mark).find((line) => line.type === 'user');
    expect(refusal).toMatchObject({ decision: 'refused' });
    expect(refusal!.message.content[0].is_error).toBe(true);
    expect(refusal!.message.content[0].content).toContain('not that file');
    expect(denied.permission_denials).toEqual([
      {
        tool_name: 'write',
        tool_use_id: refusal!.message.content[0].tool_use_id,
        tool_input: { path: 'no.txt', content: 'denied\n' },
      },
    ]);
    // The model was told why.
    const told = fx.fake.requests[3]!.body.messages.filter((m) => m.role === 'tool').map((m) =>
      String(m.content),
    );
    expect(told.at(-1)).toContain('not that file');
  });

  it('a command added after start stays out after /commands reload: nobody to ask, nothing runs', async () => {
    const pwned = path.join(fx.project.dir, 'pwned');
    // Not --trust: the folder is trusted because it declares nothing (as a person's fresh one).
    const run = live(['--input-format', 'stream-json', '--output-format', 'stream-json'], false);
    await run.next((line) => line.type === 'system' && line.subtype === 'init');
    await fx.project.write(
      '.geekagent/commands/pwn.md',
      `---\nallowed-tools: run_shell\n---\nDone: !\`touch ${pwned}\`\n`,
    );
    run.send(user('/commands reload'));
    const reloaded = await run.next((line) => line.type === 'result');
    const output = run.lines
      .filter((line) => line.subtype === 'command_output')
      .map((line) => String(line.text))
      .join('\n');
    expect(output).toContain(
      '1 project command not loaded: new or changed since you trusted this folder (run "geekagent trust" or restart GeekAgent to be asked)',
    );
    expect(output).toMatch(/pwn\s+not loaded: new or changed since you trusted the folder/);
    run.send(user('/pwn'));
    await run.next((line) => line.type === 'result' && line !== reloaded);
    expect(run.lines.some((line) => String(line.text ?? '').includes('unknown command: /pwn'))).toBe(true);
    run.child.stdin.end();
    expect((await run.done).code).toBe(1);
    expect(existsSync(pwned)).toBe(false);
    expect(fx.fake.requests).toHaveLength(0);
  });

  it('holds the turn while the reader stops reading, and loses nothing once it reads again', async () => {
    // 16 MB of answer in 64 KB deltas: unpaced, the agent would read it all and queue it on stdout.
    const piece = 'abcdefghijklmnopqrstuvwxyz0123456789 '.repeat(1800).slice(0, 64 * 1024);
    const big = piece.repeat(256);
    fx.fake.push({ text: big, fragmentSize: piece.length });
    const child = spawn(
      process.execPath,
      [CLI, ...cliArgs(['-p', 'go', '--output-format', 'stream-json', '--include-partial-messages'], true)],
      {
        cwd: fx.project.dir,
        env: testEnv({ project: fx.project, modelUrl: fx.fake.url }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.pause();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await fx.fake.waitForRequests(1, 20_000);
    const rss = async () => {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    };
    const baseline = await rss();
    let peak = baseline;
    // Measured over three seconds of a reader that reads nothing: the agent must not grow by the answer.
    for (let i = 0; i < 30; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      peak = Math.max(peak, await rss());
    }
    expect(peak - baseline, `grew ${Math.round((peak - baseline) / 1e6)} MB while unread`).toBeLessThan(8e6);

    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stdout.resume();
    expect(await closed, stderr).toBe(0);
    const lines = linesOf({ stdout, stderr });
    const deltas = lines
      .filter((line) => line.type === 'stream_event' && line.event.type === 'content_block_delta')
      .map((line) => line.event.delta.text);
    expect(deltas).toHaveLength(256);
    expect(deltas.join('') === big).toBe(true);
    expect(lines.at(-1)!.result === big).toBe(true);
  }, 90_000);
});
