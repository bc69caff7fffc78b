/**
 * The foundation end to end: the built CLI in print mode against the scripted fake model —
 * multi-step tool turns, denials, the sandbox, redaction, undo across runs, provider failures.
 */
import { existsSync } from 'node:fs';
import { readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFixture, parseJsonOutput, runCli, toolMessages } from './harness.js';

const fx = cliFixture();

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

describe('print mode', () => {
  it('runs a multi-step turn: write → read → patch → run_shell', async () => {
    fx.fake.push(
      { toolCalls: [call('write', { path: 'notes/hello.txt', content: 'hello world\n' })] },
      { toolCalls: [call('read', { path: 'notes/hello.txt' })] },
      { toolCalls: [call('patch', { path: 'notes/hello.txt', hunks: [{ old: 'world', new: 'agent' }] })] },
      { toolCalls: [call('run_shell', { command: 'cat notes/hello.txt' })] },
      { text: 'The file now says hello agent.' },
    );
    const run = await fx.run([
      '-p',
      'make a note',
      '--output-format',
      'json',
      '--allow',
      'write',
      '--allow',
      'patch',
      '--allow',
      'run_shell',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out.result).toBe('The file now says hello agent.');
    expect(out.tool_calls.map((c) => [c.name, c.decision, c.is_error])).toEqual([
      ['write', 'allow', false],
      ['read', 'allow', false],
      ['patch', 'allow', false],
      ['run_shell', 'allow', false],
    ]);
    expect(out.tool_calls[0]!.arguments).toEqual({ path: 'notes/hello.txt', content: 'hello world\n' });
    expect(out.tool_calls[1]!.result).toContain('hello world');
    expect(out.tool_calls[3]!.result).toContain('hello agent');
    expect(await readFile(path.join(fx.project.dir, 'notes/hello.txt'), 'utf8')).toBe('hello agent\n');
    expect(out.usage.total_tokens).toBeGreaterThan(0);
    // Every round went back to the model with the previous results.
    expect(fx.fake.requests).toHaveLength(5);
    expect(toolMessages(fx.fake.requests[4]!.body)[3]).toContain('hello agent');
  });

  it('prints the answer on stdout and progress lines on stderr in text format', async () => {
    fx.fake.push({ toolCalls: [call('get_current_time', {})] }, { text: 'It is now.' });
    const run = await fx.run(['-p', 'what time is it']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('It is now.\n');
    expect(run.stderr).toMatch(/\[Calling tool get_current_time → .*utc/);
  });

  it('never runs a denied tool, however often the model asks', async () => {
    await fx.project.tools({ write: 'deny' });
    const attempt = call('write', { path: 'evil.txt', content: 'x' });
    fx.fake.push(
      { toolCalls: [attempt] },
      { toolCalls: [attempt] },
      { toolCalls: [attempt] },
      { text: 'I cannot write.' },
    );
    const run = await fx.run(['-p', 'write evil.txt', '--output-format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out.tool_calls).toHaveLength(3);
    for (const c of out.tool_calls) {
      expect(c).toMatchObject({
        decision: 'deny',
        is_error: true,
        result: 'permission denied: tool write is not allowed',
      });
    }
    expect(existsSync(path.join(fx.project.dir, 'evil.txt'))).toBe(false);
  });

  it('--deny beats an allow in the config file, and an unsettled ask is refused with a hint', async () => {
    await fx.project.tools({ run_shell: 'allow' });
    fx.fake.push(
      {
        toolCalls: [
          call('run_shell', { command: 'touch ran.txt' }),
          call('write', { path: 'w.txt', content: 'x' }),
        ],
      },
      { text: 'done' },
    );
    const run = await fx.run(['-p', 'go', '--output-format', 'json', '--deny', 'run_*']);
    const out = parseJsonOutput(run);
    expect(out.tool_calls[0]).toMatchObject({ name: 'run_shell', decision: 'deny' });
    expect(out.tool_calls[1]).toMatchObject({
      name: 'write',
      decision: 'refused',
      result: 'needs approval: run interactively or pass --allow write',
    });
    expect(existsSync(path.join(fx.project.dir, 'ran.txt'))).toBe(false);
    expect(existsSync(path.join(fx.project.dir, 'w.txt'))).toBe(false);
  });

  it('refuses sandbox escapes: ../x and a symlink out of root', async () => {
    await writeFile(path.join(fx.project.dir, '..', 'secret.txt'), 'outside');
    await symlink(path.join(fx.project.dir, '..', 'secret.txt'), path.join(fx.project.dir, 'link.txt'));
    fx.fake.push(
      { toolCalls: [call('read', { path: '../secret.txt' }), call('read', { path: 'link.txt' })] },
      { toolCalls: [call('write', { path: 'link.txt', content: 'overwrite' })] },
      { text: 'blocked' },
    );
    const run = await fx.run(['-p', 'read it', '--output-format', 'json', '--allow', 'write']);
    const out = parseJsonOutput(run);
    expect(out.tool_calls.map((c) => c.result)).toEqual([
      'path outside root: ../secret.txt',
      'path outside root: link.txt',
      'path outside root: link.txt',
    ]);
    expect(await readFile(path.join(fx.project.dir, '..', 'secret.txt'), 'utf8')).toBe('outside');
  });

  it('redacts secret env values in run_shell output, before the model sees them', async () => {
    fx.fake.push(
      { toolCalls: [call('run_shell', { command: 'echo "token is $SERVICE_API_TOKEN"' })] },
      { text: 'ok' },
    );
    const run = await fx.run(['-p', 'show', '--output-format', 'json', '--allow', 'run_shell'], {
      env: { SERVICE_API_TOKEN: 'sk-very-secret-value-42' },
    });
    const out = parseJsonOutput(run);
    expect(out.tool_calls[0]!.result).toContain('token is [REDACTED:SERVICE_API_TOKEN]');
    expect(JSON.stringify(fx.fake.requests[1]!.body)).not.toContain('sk-very-secret-value-42');
  });

  it('undoes twice across runs, newest change first', async () => {
    await fx.project.write('a.txt', 'original\n');
    fx.fake.push(
      { toolCalls: [call('write', { path: 'a.txt', content: 'first edit\n' })] },
      { toolCalls: [call('write', { path: 'b.txt', content: 'new file\n' })] },
      { text: 'two changes' },
    );
    const edit = await fx.run(['-p', 'edit', '--allow', 'write']);
    expect(edit.code, edit.stderr).toBe(0);
    expect(await readFile(path.join(fx.project.dir, 'b.txt'), 'utf8')).toBe('new file\n');

    const first = await runCli(['-p', '/undo'], { project: fx.project });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('deleted b.txt');
    expect(existsSync(path.join(fx.project.dir, 'b.txt'))).toBe(false);
    expect(await readFile(path.join(fx.project.dir, 'a.txt'), 'utf8')).toBe('first edit\n');

    const second = await runCli(['-p', '/undo'], { project: fx.project });
    expect(second.stdout).toContain('restored a.txt');
    expect(await readFile(path.join(fx.project.dir, 'a.txt'), 'utf8')).toBe('original\n');

    const third = await runCli(['-p', '/undo'], { project: fx.project });
    expect(third.stdout).toContain('nothing to undo');
  });

  it('reports a provider HTTP 500 with status and message, and exits 1', async () => {
    fx.fake.push({ kind: 'http_error', status: 500, message: 'upstream exploded' });
    const run = await fx.run(['-p', 'hi']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('model request failed: HTTP 500: upstream exploded');
    expect(run.stdout).toBe('');
  });

  it('an OpenRouter 429 names the upstream provider and its reason, shown safely, after the retries', async () => {
    const routerError = (raw: string) => ({
      kind: 'raw' as const,
      status: 429,
      contentType: 'application/json',
      headers: { 'retry-after': '0' },
      body: JSON.stringify({
        error: { code: 429, message: 'Provider returned error', metadata: { raw, provider_name: 'Chutes' } },
        user_id: 'user_1',
      }),
    });
    const reason = 'google/gemma-3-27b-it:free is temporarily rate-limited upstream. Please retry shortly.';
    fx.fake.push(routerError(reason), routerError(reason));
    const text = await fx.run(['-p', 'hi'], { env: { GEEKAGENT_MAX_RETRIES: '1' } });
    expect(text.code).toBe(1);
    expect(fx.fake.requests).toHaveLength(2);
    expect(text.stderr).toContain(
      `model request failed: HTTP 429: Provider returned error — Chutes: ${reason}`,
    );

    // The upstream's own JSON body gives its message; the stream-json result carries the same line.
    fx.fake.push(routerError(JSON.stringify({ error: { message: 'Quota exceeded for gemma', code: 429 } })));
    const json = await fx.run(['-p', 'hi', '--output-format', 'stream-json']);
    expect(json.code).toBe(1);
    const result = json.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { type: string; errors?: string[] })
      .find((line) => line.type === 'result');
    expect(result?.errors).toEqual([
      'model request failed: HTTP 429: Provider returned error — Chutes: Quota exceeded for gemma',
    ]);

    // Untrusted text: escapes and line breaks come out visible and on one line, and it is bounded.
    fx.fake.push(routerError(`\u001b]0;owned\u0007\u001b[2Jline one\r\nline two ${'x'.repeat(20_000)}`));
    const hostile = await fx.run(['-p', 'hi']);
    expect(hostile.code).toBe(1);
    const line = hostile.stderr.split('\n').find((l) => l.includes('HTTP 429'))!;
    expect(line).toContain('— Chutes: ^[]0;owned^G^[[2Jline one line two xxx');
    expect(line).toMatch(/x…$/);
    for (const char of ['\u001b', '\u0007', '\r']) expect(hostile.stderr).not.toContain(char);
    expect(line.length).toBeLessThan(500);
  });

  it('turns malformed tool-call JSON into an error result and carries on', async () => {
    fx.fake.push(
      { toolCalls: [{ name: 'write', arguments: '{"path": "x.txt", "content": ' }] },
      { text: 'sorry' },
    );
    const run = await fx.run(['-p', 'hi', '--output-format', 'json', '--allow', 'write']);
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out.tool_calls[0]!.is_error).toBe(true);
    expect(out.tool_calls[0]!.result).toMatch(/^invalid JSON arguments for tool write/);
    expect(out.tool_calls[0]!.arguments).toBe('{"path": "x.txt", "content": ');
    expect(out.result).toBe('sorry');
    expect(toolMessages(fx.fake.requests[1]!.body)[0]).toMatch(/^invalid JSON arguments for tool write/);
  });

  it('exits 1 naming the missing key, with the lines to copy, when no API key is configured', async () => {
    const run = await fx.run(['-p', 'hi'], { env: { OPENAI_API_KEY: undefined } });
    expect(run.code).toBe(1);
    // A machine without the sandbox's programs says so first (test/e2e/sandbox.test.ts).
    const lines = run.stderr
      .trim()
      .split('\n')
      .filter((line) => !line.startsWith('sandbox unavailable:'));
    expect(lines[0]).toBe('No model configured: OPENAI_API_KEY is not set.');
    expect(lines[1]).toMatch(
      /^Requests would go to http:\/\/127\.0\.0\.1:\d+\/v1 \(openai · fake-model\)\.$/,
    );
    expect(lines[2]).toBe("Set one provider in the shell (or in a trusted folder's .env), e.g.:");
    expect(run.stderr).toContain('export GEEKAGENT_PROVIDER=anthropic ANTHROPIC_API_KEY=');
    expect(run.stderr).toContain(path.join(fx.project.home, '.geekagent', 'models.json'));
    expect(fx.fake.requests).toHaveLength(0);
  });

  it('reads the key from .env in the working folder', async () => {
    await fx.project.write('.env', 'OPENAI_API_KEY=from-dotenv\n');
    fx.fake.push({ text: 'hello' });
    const run = await fx.run(['-p', 'hi'], { env: { OPENAI_API_KEY: undefined } });
    expect(run.code, run.stderr).toBe(0);
    expect(fx.fake.requests[0]!.headers.authorization).toBe('Bearer from-dotenv');
  });

  it('stops start-up with the file, JSON path and problem when GeekAgent.json is malformed', async () => {
    await fx.project.write('.geekagent/GeekAgent.json', '{"tools": {"write": "sometimes"}}');
    const run = await fx.run(['-p', 'hi']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(path.join(fx.project.dir, '.geekagent', 'GeekAgent.json'));
    expect(run.stderr).toContain('tools.write');
  });

  it('reads the prompt from stdin when -p has no value and stdin is a pipe', async () => {
    fx.fake.push({ text: 'piped answer' });
    const run = await fx.run([], { input: 'question from a pipe' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('piped answer\n');
    const user = fx.fake.requests[0]!.body.messages.find((m) => m.role === 'user');
    expect(user?.content).toBe('question from a pipe');
  });

  it('--cwd works in another folder and the system prompt carries AGENTS.md', async () => {
    await fx.project.write('sub/AGENTS.md', 'Always answer in haiku.');
    fx.fake.push({ text: 'ok' });
    const run = await fx.run(['-p', 'hi', '--cwd', 'sub']);
    expect(run.code, run.stderr).toBe(0);
    // Nothing is written into the folder (issue 41): its AGENTS.md below shows the run was there.
    expect(existsSync(path.join(fx.project.dir, 'sub', '.geekagent'))).toBe(false);
    const system = String(fx.fake.requests[0]!.body.messages[0]!.content);
    expect(system).toContain('Project instructions (AGENTS.md');
    expect(system).toContain('# AGENTS.md\nAlways answer in haiku.');
  });
});
