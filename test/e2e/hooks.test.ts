/**
 * Lifecycle hooks (issue 29 §1) through the built CLI in print mode, with real hook scripts:
 * Claude Code's contract (JSON on stdin, exit 2 blocks with stderr, JSON decisions on stdout),
 * timeouts that leave no process behind, and a project's hooks only in a trusted folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFixture, parseJsonOutput, toolMessages } from './harness.js';

const fx = cliFixture();

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

type Hooks = Record<string, Array<{ matcher?: string; hooks: Array<Record<string, unknown>> }>>;

/** Writes the user's GeekAgent.json (`$GEEKAGENT_HOME`) with these hooks. */
async function userHooks(hooks: Hooks): Promise<void> {
  const dir = path.join(fx.project.home, '.geekagent');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'GeekAgent.json'), JSON.stringify({ hooks }, null, 2));
}

/**
 * A node hook script: it reads its stdin JSON, appends it to `log` (one line per run), then runs
 * `body` (which sees `input`). Returns the command line that runs it.
 */
async function hookScript(name: string, body: string): Promise<{ command: string; log: string }> {
  const dir = path.join(fx.project.home, 'hooks');
  await mkdir(dir, { recursive: true });
  const log = path.join(dir, `${name}.log`);
  const file = path.join(dir, `${name}.mjs`);
  await writeFile(
    file,
    [
      "import { appendFileSync } from 'node:fs';",
      "let raw = '';",
      'for await (const chunk of process.stdin) raw += chunk;',
      'const input = JSON.parse(raw);',
      `appendFileSync(${JSON.stringify(log)}, JSON.stringify(input) + '\\n');`,
      body,
    ].join('\n'),
  );
  return { command: `node ${JSON.stringify(file)}`, log };
}

async function logged(log: string): Promise<Array<Record<string, unknown>>> {
  if (!existsSync(log)) return [];
  return (await readFile(log, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Running (a zombie waiting for a reaper that is not its parent any more does not count). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // `pid (comm) S …`: the state follows the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('lifecycle hooks', () => {
  it('PreToolUse exit 2 blocks the call and its stderr reaches the model', async () => {
    const hook = await hookScript(
      'guard',
      "if (input.tool_input.path === 'evil.txt') { process.stderr.write('no evil files, write good.txt instead'); process.exit(2); }",
    );
    await userHooks({
      PreToolUse: [{ matcher: 'write|patch', hooks: [{ type: 'command', command: hook.command }] }],
    });
    fx.fake.push(
      { toolCalls: [call('write', { path: 'evil.txt', content: 'x' })] },
      { toolCalls: [call('write', { path: 'good.txt', content: 'y' })] },
      { text: 'done' },
    );
    const run = await fx.run(['-p', 'write a file', '--output-format', 'json', '--allow', 'write']);
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out.tool_calls[0]).toMatchObject({ name: 'write', decision: 'deny', is_error: true });
    expect(out.tool_calls[0]!.result).toBe(
      'blocked by a PreToolUse hook: no evil files, write good.txt instead',
    );
    expect(out.tool_calls[1]).toMatchObject({ name: 'write', decision: 'allow', is_error: false });
    expect(existsSync(path.join(fx.project.dir, 'evil.txt'))).toBe(false);
    expect(existsSync(path.join(fx.project.dir, 'good.txt'))).toBe(true);
    expect(toolMessages(fx.fake.requests[1]!.body)[0]).toContain('no evil files');
    // Claude Code's stdin fields.
    const [first] = await logged(hook.log);
    expect(first).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'write',
      tool_input: { path: 'evil.txt', content: 'x' },
      cwd: fx.project.dir,
    });
    expect(typeof first!.session_id).toBe('string');
    expect(String(first!.transcript_path)).toContain(String(first!.session_id));
  });

  it('JSON decisions: allow lets an asked call run, deny refuses an allowed one, a deny rule still wins', async () => {
    const hook = await hookScript(
      'decide',
      [
        "if (input.tool_name === 'get_current_time') console.log(JSON.stringify({ decision: 'block', reason: 'no clocks today' }));",
        "else console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'fine' } }));",
      ].join('\n'),
    );
    await userHooks({ PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: hook.command }] }] });
    fx.fake.push(
      {
        toolCalls: [
          call('run_shell', { command: 'echo ran > shell.txt' }),
          call('get_current_time', {}),
          call('write', { path: 'w.txt', content: 'x' }),
        ],
      },
      { text: 'done' },
    );
    // The sandbox off: run_shell is asked (print mode refuses it) unless the hook allows it.
    const run = await fx.run(['-p', 'go', '--output-format', 'json', '--deny', 'write'], {
      env: { GEEKAGENT_SANDBOX: 'off' },
    });
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out.tool_calls.map((c) => [c.name, c.decision, c.is_error])).toEqual([
      ['run_shell', 'allow', false],
      ['get_current_time', 'deny', true],
      ['write', 'deny', true],
    ]);
    expect(existsSync(path.join(fx.project.dir, 'shell.txt'))).toBe(true);
    expect(out.tool_calls[1]!.result).toBe('blocked by a PreToolUse hook: no clocks today');
    expect(out.tool_calls[2]!.result).toBe('permission denied: tool write is not allowed');
    expect(existsSync(path.join(fx.project.dir, 'w.txt'))).toBe(false);
  });

  it('permissionDecision ask forces the question (print mode refuses with the reason)', async () => {
    const hook = await hookScript(
      'ask',
      "console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'clock check' } }));",
    );
    await userHooks({
      PreToolUse: [{ matcher: 'get_current_time', hooks: [{ type: 'command', command: hook.command }] }],
    });
    fx.fake.push({ toolCalls: [call('get_current_time', {})] }, { text: 'done' });
    const run = await fx.run(['-p', 'time?', '--output-format', 'json']);
    const out = parseJsonOutput(run);
    expect(out.tool_calls[0]).toMatchObject({
      name: 'get_current_time',
      decision: 'refused',
      is_error: true,
    });
    expect(out.tool_calls[0]!.result).toContain('clock check');
  });

  it('UserPromptSubmit additionalContext reaches the request; PostToolUse context reaches the tool result', async () => {
    const prompt = await hookScript(
      'prompt',
      "console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'The secret word is PAPAYA.' } }));",
    );
    const post = await hookScript(
      'post',
      "console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'formatted by the hook' } }));",
    );
    await userHooks({
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: prompt.command }] }],
      PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: post.command }] }],
    });
    fx.fake.push({ toolCalls: [call('write', { path: 'a.txt', content: 'a' })] }, { text: 'done' });
    const run = await fx.run(['-p', 'hello there', '--output-format', 'json', '--allow', 'write']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.stringify(fx.fake.requests[0]!.body.messages)).toContain('The secret word is PAPAYA.');
    expect(await logged(prompt.log)).toMatchObject([
      { hook_event_name: 'UserPromptSubmit', prompt: 'hello there' },
    ]);
    // Claude Code's tool name (`Write`) matches GeekAgent's write; the note follows the result.
    expect(toolMessages(fx.fake.requests[1]!.body)[0]).toContain('formatted by the hook');
    expect(await logged(post.log)).toMatchObject([{ hook_event_name: 'PostToolUse', tool_name: 'write' }]);
  });

  it('UserPromptSubmit exit 2 blocks the prompt: nothing is sent, the person reads why', async () => {
    const hook = await hookScript('block', "process.stderr.write('no secrets in prompts'); process.exit(2);");
    await userHooks({ UserPromptSubmit: [{ hooks: [{ type: 'command', command: hook.command }] }] });
    const run = await fx.run(['-p', 'my password is hunter2']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('prompt blocked by a UserPromptSubmit hook: no secrets in prompts');
    expect(fx.fake.requests).toHaveLength(0);
  });

  it('a hanging hook is stopped after its timeout: the turn finishes and no process is left', async () => {
    const dir = path.join(fx.project.home, 'hooks');
    await mkdir(dir, { recursive: true });
    const shPid = path.join(dir, 'sh.pid');
    const sleepPid = path.join(dir, 'sleep.pid');
    const command = `echo $$ > ${shPid}; sleep 300 & echo $! > ${sleepPid}; wait`;
    await userHooks({ PreToolUse: [{ matcher: '', hooks: [{ type: 'command', command, timeout: 1 }] }] });
    fx.fake.push({ toolCalls: [call('get_current_time', {})] }, { text: 'done' });
    // The hook sleeps 300 s: the run finishing at all (the harness gives up after 45 s) is its 1 s
    // timeout at work, whatever the machine's load.
    const run = await fx.run(['-p', 'time?', '--output-format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    // The hook said nothing: the call ran under its policy.
    expect(out.tool_calls[0]).toMatchObject({ name: 'get_current_time', decision: 'allow', is_error: false });
    expect(run.stderr).toContain('timed out after 1 s and was stopped');
    for (const file of [shPid, sleepPid]) {
      const pid = Number((await readFile(file, 'utf8')).trim());
      expect(pid).toBeGreaterThan(1);
      expect(alive(pid)).toBe(false);
    }
  });

  it("an untrusted project's hooks never run; trusted, they do", async () => {
    const hook = await hookScript('project', 'process.exit(0);');
    await fx.project.write(
      '.geekagent/GeekAgent.json',
      JSON.stringify({
        root: '..',
        hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: hook.command }] }] },
      }),
    );
    fx.fake.push({ toolCalls: [call('get_current_time', {})] }, { text: 'done' });
    const untrusted = await fx.run(['-p', 'time?'], { trusted: false });
    expect(untrusted.code, untrusted.stderr).toBe(0);
    expect(untrusted.stderr).toContain('ignoring 1 hook');
    expect(await logged(hook.log)).toEqual([]);

    fx.fake.push({ toolCalls: [call('get_current_time', {})] }, { text: 'done' });
    const trusted = await fx.run(['-p', 'time?']);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(await logged(hook.log)).toMatchObject([
      { hook_event_name: 'PreToolUse', tool_name: 'get_current_time' },
    ]);
  });

  it('Stop exit 2 makes the agent go on with the reason; SessionStart and SessionEnd run', async () => {
    const stop = await hookScript(
      'stop',
      "if (!input.stop_hook_active) { process.stderr.write('also say goodbye'); process.exit(2); }",
    );
    const start = await hookScript('start', "console.log('Today is a holiday.');");
    const end = await hookScript('end', '');
    await userHooks({
      Stop: [{ hooks: [{ type: 'command', command: stop.command }] }],
      SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: start.command }] }],
      SessionEnd: [{ hooks: [{ type: 'command', command: end.command }] }],
    });
    fx.fake.push({ text: 'hello' }, { text: 'goodbye' });
    const run = await fx.run(['-p', 'greet me']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('goodbye\n');
    expect(fx.fake.requests).toHaveLength(2);
    const second = fx.fake.requests[1]!.body.messages;
    expect(second.at(-1)).toMatchObject({ role: 'user', content: 'also say goodbye' });
    expect(await logged(stop.log)).toMatchObject([
      { hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'hello' },
      { hook_event_name: 'Stop', stop_hook_active: true, last_assistant_message: 'goodbye' },
    ]);
    // SessionStart's plain stdout is context of the first turn.
    expect(JSON.stringify(fx.fake.requests[0]!.body.messages)).toContain('Today is a holiday.');
    expect(await logged(start.log)).toMatchObject([{ hook_event_name: 'SessionStart', source: 'startup' }]);
    expect(await logged(end.log)).toMatchObject([{ hook_event_name: 'SessionEnd', reason: 'exit' }]);
  });

  it('SubagentStop makes a sub-agent go on; its tool calls pass PreToolUse; PreCompact runs before /compact', async () => {
    const sub = await hookScript(
      'substop',
      "if (!input.stop_hook_active) { process.stderr.write('check twice'); process.exit(2); }",
    );
    const pre = await hookScript('pretool', '');
    const compact = await hookScript('compact', '');
    await userHooks({
      SubagentStop: [{ hooks: [{ type: 'command', command: sub.command }] }],
      PreToolUse: [{ matcher: 'get_current_time', hooks: [{ type: 'command', command: pre.command }] }],
      PreCompact: [{ matcher: 'manual', hooks: [{ type: 'command', command: compact.command }] }],
    });
    fx.fake.push(
      { toolCalls: [call('delegate_task', { task: 'what time is it?' })] },
      { text: 'parent done' },
    );
    fx.fake.pushFor(
      'explore',
      { toolCalls: [call('get_current_time', {})] },
      { text: 'first look' },
      { text: 'checked twice' },
    );
    const run = await fx.run(['-p', 'delegate', '--output-format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    expect(toolMessages(fx.fake.requests.at(-1)!.body)[0]).toContain('checked twice');
    expect(await logged(sub.log)).toMatchObject([
      { hook_event_name: 'SubagentStop', agent_type: 'explore', stop_hook_active: false },
      { hook_event_name: 'SubagentStop', agent_type: 'explore', stop_hook_active: true },
    ]);
    expect(await logged(pre.log)).toMatchObject([
      { hook_event_name: 'PreToolUse', tool_name: 'get_current_time' },
    ]);

    // Nothing to compact yet, but the compaction is attempted: the hook runs first.
    await fx.run(['-p', '/compact']);
    expect(await logged(compact.log)).toMatchObject([{ hook_event_name: 'PreCompact', trigger: 'manual' }]);
  });

  it('/hooks lists each hook with its source and last result', async () => {
    await userHooks({
      PreToolUse: [{ matcher: 'run_shell', hooks: [{ type: 'command', command: 'true', timeout: 5 }] }],
    });
    const run = await fx.run(['-p', '/hooks']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('PreToolUse  run_shell  true  (user, 5 s)  last: not run yet');
  });
});
