/**
 * Background shells through the built CLI and the fake model: `run_shell` with `background: true`
 * returns at once with the first output; `shell_output` in later rounds returns only what is new,
 * and the exit code once done; `shell_kill` ends the shell's whole process group; and no process of
 * a background shell outlives the agent — after a normal exit, SIGTERM, or SIGKILL (the reaper).
 * Processes are checked by pid: the shell's own and every descendant seen while it ran.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-model.js';
import { descendants, isAlive, waitFor } from '../helpers/wait.js';
import { CLI, cliFixture, parseJsonOutput, testEnv, toolMessages, userProjectDirOf } from './harness.js';

const fx = cliFixture();

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });
const background = (command: string) => call('run_shell', { command, background: true });

/** The pid run_shell reported for the shell (its process group), from the request after it. */
function shellPid(request: RecordedRequest): number {
  const started = toolMessages(request.body).find((text) => text.startsWith('started background shell'));
  const match = /\(pid (\d+)\)/.exec(started ?? '');
  if (!match) throw new Error(`no background shell pid in: ${started}`);
  return Number(match[1]);
}

/** The shell and everything it started, as live pids (its sandbox's processes included). */
function family(pid: number): number[] {
  return [pid, ...descendants(pid)];
}

/** Waits for a process of the shell's command that the test can see: it is really running. */
const LONG = 'sleep 300 & echo ready; wait';

describe('background shells', () => {
  it('prints over time and is read in later rounds: new output only, then its exit code', async () => {
    const go = (name: string) => writeFileSync(path.join(fx.project.dir, name), '');
    const waitFile = (name: string) => `while [ ! -e ${name} ]; do sleep 0.05; done`;
    const command = `echo first; ${waitFile('go1')}; echo second; ${waitFile('go2')}; echo third; exit 3`;
    fx.fake.push(
      { toolCalls: [background(command)] },
      () => {
        go('go1');
        return { toolCalls: [call('shell_output', { id: 'shell-1', wait_seconds: 30 })] };
      },
      { toolCalls: [call('shell_output', { id: 'shell-1' })] },
      () => {
        go('go2');
        return { toolCalls: [call('shell_output', { id: 'shell-1', wait_seconds: 30 })] };
      },
      { toolCalls: [call('shell_output', { wait_seconds: 30 })] },
      { text: 'read it all' },
    );
    const run = await fx.run(['-p', 'watch it', '--output-format', 'json', '--allow', 'run_shell']);
    expect(run.code, run.stderr).toBe(0);
    const results = parseJsonOutput(run).tool_calls.map((c) => c.result);
    expect(results[0]).toMatch(
      /^started background shell shell-1 \(pid \d+\)\nfirst\n\[shell-1 still running\]/,
    );
    expect(results[1]).toBe('second\n[shell-1 still running]');
    expect(results[2]).toBe('(no new output)\n[shell-1 still running]');
    expect(results[3]).toMatch(/^third\n\[shell-1 (still running|exited with code 3)\]$/);
    // Without an id: every shell, with its (sanitised) command and state.
    expect(results[4]).toMatch(/^== shell-1: echo first; .*==\n[\s\S]*\[shell-1 exited with code 3\]$/);
    expect(results[4]).not.toContain('third');

    // The whole output is in the person's state folder, not in the project.
    const logDir = path.join(userProjectDirOf(fx.project), 'shells');
    const logs = readdirSync(logDir);
    expect(logs).toHaveLength(1);
    expect(readFileSync(path.join(logDir, logs[0]!), 'utf8')).toBe('first\nsecond\nthird\n');
  });

  it('never writes its output through a link planted where the log folder goes', async () => {
    const elsewhere = path.join(fx.project.home, 'elsewhere');
    mkdirSync(elsewhere);
    mkdirSync(userProjectDirOf(fx.project), { recursive: true });
    symlinkSync(elsewhere, path.join(userProjectDirOf(fx.project), 'shells'));
    fx.fake.push({ toolCalls: [background('echo still-runs')] }, { text: 'ok' });
    const run = await fx.run(['-p', 'go', '--output-format', 'json', '--allow', 'run_shell']);
    expect(run.code, run.stderr).toBe(0);
    const result = parseJsonOutput(run).tool_calls[0]!.result;
    expect(result).toMatch(
      /its output is not kept in a file: refusing to keep background shell output in .*shells: it is a symbolic link/,
    );
    expect(result).toContain('still-runs');
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('shell_kill stops the shell and everything it started', async () => {
    let seen: number[] = [];
    let aliveAfterKill: number[] = [];
    fx.fake.push(
      { toolCalls: [background(LONG)] },
      (request) => {
        seen = family(shellPid(request));
        return { toolCalls: [call('shell_kill', { id: 'shell-1' })] };
      },
      () => {
        // The kill's result is in: nothing of the shell may run any more, while the agent still does.
        aliveAfterKill = seen.filter(isAlive);
        return { toolCalls: [call('shell_output', {})] };
      },
      { text: 'stopped' },
    );
    const run = await fx.run(['-p', 'start and stop', '--output-format', 'json', '--allow', 'run_shell']);
    expect(run.code, run.stderr).toBe(0);
    const results = parseJsonOutput(run).tool_calls.map((c) => c.result);
    expect(results[0]).toContain('ready\n[shell-1 still running]');
    expect(seen.length).toBeGreaterThanOrEqual(2); // the shell and its sleep
    expect(aliveAfterKill).toEqual([]);
    expect(results[1]).toMatch(/^stopped shell-1\n/);
    expect(results[1]).toContain('[shell-1 stopped]');
    expect(results[2]).toContain('[shell-1 stopped]');
  });

  it('stream-json: the starting call stays in_progress until a tool_status line completes it', async () => {
    fx.fake.push(
      { toolCalls: [background(LONG)] },
      { toolCalls: [call('shell_output', { id: 'shell-1' })] },
      { toolCalls: [call('shell_kill', { id: 'shell-1' })] },
      { text: 'stopped' },
    );
    const run = await fx.run(['-p', 'go', '--output-format', 'stream-json', '--allow', 'run_shell']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    // Each result is a `user` message with its tool_result block (Claude Code's shape).
    const results = lines.filter((line) => line.type === 'user' && 'tool_use_result' in line);
    const useIds = results.map((line) => {
      const message = line.message as { content: { tool_use_id: string }[] };
      return message.content[0]!.tool_use_id;
    });
    expect(results.map((line) => [line.tool_name, line.status])).toEqual([
      ['run_shell', 'in_progress'],
      ['shell_output', undefined],
      ['shell_kill', undefined],
    ]);
    const status = lines.filter((line) => line.type === 'system' && line.subtype === 'tool_status');
    expect(status).toEqual([
      expect.objectContaining({
        tool_use_id: useIds[0],
        tool_name: 'run_shell',
        status: 'completed',
        shell_id: 'shell-1',
      }),
    ]);
    // Completed by the kill: after the read that saw it running, before the kill's own result.
    expect(lines.indexOf(status[0]!)).toBeGreaterThan(lines.indexOf(results[1]!));
    expect(lines.indexOf(status[0]!)).toBeLessThan(lines.indexOf(results[2]!));
  });

  it('a shell that ended but left a process in its group says so, and shell_kill ends that too', async () => {
    let left = 0;
    let aliveBeforeKill = false;
    fx.fake.push(
      // Unconfined: in the sandbox the shell's namespace ends with it, so nothing can linger.
      { toolCalls: [background('sleep 300 >/dev/null 2>&1 & echo $!')] },
      (request) => {
        left = Number(/^(\d+)$/m.exec(toolMessages(request.body)[0]!)![1]);
        return { toolCalls: [call('shell_output', { id: 'shell-1', wait_seconds: 30 })] };
      },
      () => {
        aliveBeforeKill = isAlive(left);
        return { toolCalls: [call('shell_kill', { id: 'shell-1' })] };
      },
      // The agent stays up (its session has not ended): only shell_kill can have ended the sleep.
      { kind: 'hang' },
    );
    const args = [CLI, '--trust', '--sandbox', 'off', '--allow', 'run_shell', '-p', 'go'];
    const agent = spawn(process.execPath, args, {
      cwd: fx.project.dir,
      env: testEnv({ project: fx.project, modelUrl: fx.fake.url }),
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => agent.once('exit', resolve));
    await fx.fake.waitForRequests(4);
    const results = toolMessages(fx.fake.requests[3]!.body);
    expect(results[1]).toMatch(
      /\[shell-1 exited with code 0; processes it started still run \(shell_kill stops them\)\]$/,
    );
    expect(aliveBeforeKill).toBe(true);
    expect(results[2]).toMatch(/^stopped shell-1\n/);
    await waitFor(() => !isAlive(left), { what: 'the process the shell left behind to end' });
    agent.kill('SIGTERM');
    await exited;
  });

  it('a shell still running when the run ends is stopped with it', async () => {
    let seen: number[] = [];
    fx.fake.push({ toolCalls: [background(LONG)] }, (request) => {
      seen = family(shellPid(request));
      return { text: 'leaving it running' };
    });
    const run = await fx.run(['-p', 'start one', '--allow', 'run_shell']);
    expect(run.code, run.stderr).toBe(0);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    await waitFor(() => seen.every((pid) => !isAlive(pid)), { what: 'the background shell to end' });
  });

  // Confined, the shell's bubblewrap dies with its parent; unconfined (`--sandbox off`) only the
  // tracker and the reaper stand between a killed agent and an orphaned `sleep`.
  it.each([
    ['SIGTERM', 'workspace-write', { code: 143, signal: null }],
    ['SIGKILL', 'workspace-write', { code: null, signal: 'SIGKILL' }],
    ['SIGTERM', 'off', { code: 143, signal: null }],
    ['SIGKILL', 'off', { code: null, signal: 'SIGKILL' }],
  ] as const)(
    '%s of the agent mid-turn (sandbox %s) leaves no process of a background shell',
    async (signal, sandbox, expected) => {
      fx.fake.push({ toolCalls: [background(LONG)] }, { kind: 'hang' });
      const args = [CLI, '--trust', '--sandbox', sandbox, '--allow', 'run_shell', '-p', 'start and hang'];
      const agent = spawn(process.execPath, args, {
        cwd: fx.project.dir,
        env: testEnv({ project: fx.project, modelUrl: fx.fake.url }),
        stdio: 'ignore',
      });
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        agent.once('exit', (code, exitSignal) => resolve({ code, signal: exitSignal })),
      );
      await fx.fake.waitForRequests(2);
      const seen = family(shellPid(fx.fake.requests[1]!));
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen.every(isAlive)).toBe(true);
      agent.kill(signal);
      expect(await exited).toEqual(expected);
      await waitFor(() => seen.every((pid) => !isAlive(pid)), {
        what: `the background shell to end after ${signal}`,
      });
    },
  );
});

describe('a foreground run_shell', () => {
  // Listed with the run's tracker while it runs: before, a SIGKILLed agent left the command behind.
  it.each(['workspace-write', 'off'])('is gone after SIGKILL of the agent (sandbox %s)', async (sandbox) => {
    fx.fake.push(
      { toolCalls: [call('run_shell', { command: 'touch fg.started; sleep 300' })] },
      { kind: 'hang' },
    );
    const args = [CLI, '--trust', '--sandbox', sandbox, '--allow', 'run_shell', '-p', 'run it'];
    const agent = spawn(process.execPath, args, {
      cwd: fx.project.dir,
      env: testEnv({ project: fx.project, modelUrl: fx.fake.url }),
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => agent.once('exit', resolve));
    await waitFor(() => existsSync(path.join(fx.project.dir, 'fg.started')), {
      what: 'the command to start',
    });
    const seen = descendants(agent.pid!);
    expect(seen.length).toBeGreaterThanOrEqual(2); // the shell and its sleep (and the reaper)
    agent.kill('SIGKILL');
    await exited;
    await waitFor(() => seen.every((pid) => !isAlive(pid)), { what: 'the command to end after SIGKILL' });
  });
});
