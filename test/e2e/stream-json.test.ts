/**
 * `--output-format stream-json` and `--input-format stream-json` (issue 30 §1), on the built CLI:
 * every stdout line is one JSON object in order (init first, result last, a call's tool_use before
 * its tool_result), the result line is `--output-format json`'s object, turns come from stdin one
 * after another, malformed lines get error lines, approvals are answered in-band, a reader that
 * stops reading holds the turn back instead of growing the agent, and control characters stay
 * escaped.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, cliArgs, cliFixture, type RunResult, testEnv } from './harness.js';

const fx = cliFixture({ env: { GEEKAGENT_SANDBOX: 'off' } });

// biome-ignore lint/suspicious/noExplicitAny: lines of many shapes, checked field by field
type Line = Record<string, any>;

const user = (content: unknown) =>
  `${JSON.stringify({ type: 'user', message: { role: 'user', content } })}\n`;
const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

/** Every stdout line parsed; fails on a line that is not one JSON object. */
function linesOf(run: Pick<RunResult, 'stdout' | 'stderr'>): Line[] {
  expect(run.stdout.endsWith('\n'), run.stderr).toBe(true);
  return run.stdout
    .slice(0, -1)
    .split('\n')
    .map((text) => {
      try {
        const value = JSON.parse(text) as unknown;
        expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(true);
        return value as Line;
      } catch {
        throw new Error(`not a JSON line: ${text.slice(0, 200)}\nstderr: ${run.stderr}`);
      }
    });
}

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

describe('--output-format stream-json', () => {
  it('prints one JSON object a line, in order, and its result is the --output-format json object', async () => {
    const script = () =>
      fx.fake.push(
        { reasoning: 'Look first.', toolCalls: [call('ls', { path: '.' })] },
        { text: 'There is one file.' },
      );
    await fx.project.write('a.txt', 'hi\n');
    script();
    const run = await fx.run(['-p', 'what is here', '--output-format', 'stream-json', '--allow', 'ls']);
    expect(run.code, run.stderr).toBe(0);
    const lines = linesOf(run);
    const order = kinds(lines);
    expect(order[0]).toBe('system/init');
    expect(order.at(-1)).toBe('result/success');
    expect(order.filter((kind) => kind === 'system/init' || kind.startsWith('result'))).toHaveLength(2);

    const init = lines[0]!;
    expect(init).toMatchObject({ model: 'fake-model', provider: 'openai', cwd: fx.project.dir });
    expect(init.tools).toContain('ls');
    expect(init.session_id).toMatch(/\S/);
    expect(init.mcp_servers).toEqual([]);

    // Reasoning, then the first round's assistant message, then the call and its result.
    const thinking = lines.filter(
      (line) => line.type === 'stream_event' && line.event.delta.type === 'thinking_delta',
    );
    expect(thinking.map((line) => line.event.delta.thinking).join('')).toBe('Look first.');
    const useAt = lines.findIndex((line) => line.type === 'tool_use');
    const resultAt = lines.findIndex((line) => line.type === 'tool_result');
    const firstAssistant = lines.findIndex((line) => line.type === 'assistant');
    expect(firstAssistant).toBeGreaterThan(lines.indexOf(thinking.at(-1)!));
    expect(useAt).toBeGreaterThan(firstAssistant);
    expect(resultAt).toBeGreaterThan(useAt);
    const use = lines[useAt]!;
    expect(use).toMatchObject({ name: 'ls', input: { path: '.' }, decision: 'allow' });
    expect(lines[firstAssistant]!.message.content).toEqual([
      { type: 'thinking', thinking: 'Look first.' },
      { type: 'tool_use', id: use.id, name: 'ls', input: { path: '.' } },
    ]);
    expect(lines[resultAt]).toMatchObject({ tool_use_id: use.id, is_error: false, decision: 'allow' });
    expect(lines[resultAt]!.content).toContain('a.txt');
    const text = lines.filter(
      (line) => line.type === 'stream_event' && line.event.delta.type === 'text_delta',
    );
    expect(text.length).toBeGreaterThan(1);
    expect(text.map((line) => line.event.delta.text).join('')).toBe('There is one file.');
    expect(lines.filter((line) => line.type === 'assistant').at(-1)!.message.content).toEqual([
      { type: 'text', text: 'There is one file.' },
    ]);

    const result = lines.at(-1)!;
    expect(result).toMatchObject({
      is_error: false,
      exit_reason: 'completed',
      result: 'There is one file.',
      num_turns: 2,
      session_id: init.session_id,
    });
    expect(Object.keys(result.usage)).toEqual(
      expect.arrayContaining(['input_tokens', 'output_tokens', 'cache_read_input_tokens']),
    );

    // The same script with --output-format json: the same object (but for the time and session).
    script();
    const json = await fx.run(['-p', 'what is here', '--output-format', 'json', '--allow', 'ls']);
    expect(json.code, json.stderr).toBe(0);
    const single = JSON.parse(json.stdout) as Line;
    const comparable = ({ duration_ms, session_id, ...rest }: Line) => {
      expect(typeof duration_ms).toBe('number');
      expect(typeof session_id).toBe('string');
      return rest;
    };
    expect(comparable(result)).toEqual(comparable(single));
  });

  it('refuses a tool that needs a question without stream input, with the --allow hint', async () => {
    fx.fake.push({ toolCalls: [call('write', { path: 'x.txt', content: 'x' })] }, { text: 'could not' });
    const run = await fx.run(['-p', 'write it', '--output-format', 'stream-json']);
    expect(run.code, run.stderr).toBe(0);
    const lines = linesOf(run);
    expect(lines.find((line) => line.type === 'tool_use')).toMatchObject({
      name: 'write',
      decision: 'refused',
    });
    expect(lines.find((line) => line.type === 'tool_result')!.content).toContain('--allow write');
    expect(existsSync(path.join(fx.project.dir, 'x.txt'))).toBe(false);
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
    const use = lines.find((line) => line.type === 'tool_use' && line.name === 'delegate_task')!;
    const progress = lines.filter((line) => line.type === 'tool_progress' && line.tool_use_id === use.id);
    expect(progress.map((line) => line.message)).toContain('explore: round 1, running ls');
    const result = lines.find((line) => line.type === 'tool_result' && line.tool_use_id === use.id)!;
    expect(lines.indexOf(result)).toBeGreaterThan(lines.indexOf(progress.at(-1)!));
    expect(result.content).toContain('saw it');
    expect(lines.at(-1)!.agents).toHaveLength(1);
  });

  it('keeps control characters of untrusted text escaped, and the text exact', async () => {
    const evil = 'a\u001b]52;c;aGk=\u0007b\u001b[2J\r\u007f\u0085\u009b\u202e\u2028z';
    await fx.project.write('evil.txt', `${evil}\n`);
    fx.fake.push({ toolCalls: [call('read', { path: 'evil.txt' })] }, { text: evil, reasoning: evil });
    const run = await fx.run(['-p', 'read it', '--output-format', 'stream-json']);
    expect(run.code, run.stderr).toBe(0);
    // Nothing but printable text and the line breaks between objects.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202e]/);
    const lines = linesOf(run);
    expect(lines.at(-1)!.result).toBe(evil);
    expect(lines.find((line) => line.type === 'tool_result')!.content).toContain(evil);
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
    expect(run.lines.find((line) => line.type === 'tool_use')).toMatchObject({ decision: 'approved' });

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
    const refusal = run.lines.slice(mark).find((line) => line.type === 'tool_result');
    expect(refusal).toMatchObject({ is_error: true, decision: 'refused' });
    expect(refusal!.content).toContain('not that file');
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
      [CLI, ...cliArgs(['-p', 'go', '--output-format', 'stream-json'], true)],
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
    const deltas = lines.filter((line) => line.type === 'stream_event').map((line) => line.event.delta.text);
    expect(deltas).toHaveLength(256);
    expect(deltas.join('') === big).toBe(true);
    expect(lines.at(-1)!.result === big).toBe(true);
  }, 90_000);
});
