import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createShellTool, SHELL_TIMEOUT_MS } from '../../../src/tools/builtin/shell.js';
import { ToolError } from '../../../src/tools/types.js';
import { makeContext, makeRoot, removeRoot, runText, waitFor } from './helpers.js';

/** Alive means signalable and not a zombie (PID 1 in a container may never reap orphans). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

async function readPid(file: string): Promise<number> {
  let pid = Number.NaN;
  await waitFor(async () => {
    pid = Number((await readFile(file, 'utf8').catch(() => '')).trim());
    return Number.isInteger(pid) && pid > 0;
  });
  return pid;
}

describe('run_shell', () => {
  let root: string;
  const shell = createShellTool();

  beforeEach(async () => {
    root = await makeRoot();
  });
  afterEach(async () => {
    await removeRoot(root);
  });

  it('merges stdout and stderr', async () => {
    const { ctx } = makeContext(root);
    const out = await runText(shell, { command: 'echo to-stdout; echo to-stderr >&2' }, ctx);
    expect(out).toContain('to-stdout');
    expect(out).toContain('to-stderr');
    expect(out.split('\n')).toHaveLength(2);
  });

  it('runs in the sandbox root with the context env and closed stdin', async () => {
    const { ctx } = makeContext(root, { env: { PATH: process.env.PATH, GEEK_VAR: 'from-ctx' } });
    expect(await runText(shell, { command: 'pwd; echo "$GEEK_VAR"; cat' }, ctx)).toBe(`${root}\nfrom-ctx`);
  });

  it('cuts output to 2000 chars with a note giving the exact total', async () => {
    const { ctx } = makeContext(root);
    const out = await runText(shell, { command: "head -c 5000 /dev/zero | tr '\\0' a" }, ctx);
    expect(out).toBe(`${'a'.repeat(2000)}\n(output truncated, 5000 chars in total)`);
  });

  it('reports a non-zero exit code after the output', async () => {
    const { ctx } = makeContext(root);
    expect(await runText(shell, { command: 'echo partial; exit 3' }, ctx)).toBe('partial\n(exit code 3)');
  });

  it('says so when there is no output, and reports a signal', async () => {
    const { ctx } = makeContext(root);
    expect(await runText(shell, { command: 'true' }, ctx)).toBe('(no output)');
    expect(await runText(shell, { command: 'kill -TERM $$' }, ctx)).toBe('(no output)\n(killed by SIGTERM)');
  });

  it('kills the whole process group on timeout, background grandchildren included', async () => {
    const quick = createShellTool({ timeoutMs: 500 });
    const { ctx } = makeContext(root);
    const out = await runText(quick, { command: 'echo started; sleep 100 & echo $! > pid; wait' }, ctx);
    expect(out).toBe('started\n(command timed out after 0.5 s)');
    const pid = await readPid(path.join(root, 'pid'));
    await waitFor(() => !isAlive(pid));
  });

  it('kills the group and reports cancellation when the signal aborts', async () => {
    const controller = new AbortController();
    const { ctx } = makeContext(root, { signal: controller.signal });
    const running = shell.run({ command: 'sleep 100 & echo $! > pid; wait' }, ctx);
    const pid = await readPid(path.join(root, 'pid'));
    expect(isAlive(pid)).toBe(true);
    controller.abort();
    await expect(running).rejects.toThrow(new ToolError('run_shell: cancelled'));
    await waitFor(() => !isAlive(pid));
  });

  it('validates its argument and describes the approval', async () => {
    const { ctx } = makeContext(root);
    await expect(shell.run({}, ctx)).rejects.toThrow('run_shell: "command" must be a string');
    await expect(shell.run({ command: '  ' }, ctx)).rejects.toThrow('run_shell: "command" must not be empty');
    expect(await shell.describeApproval?.({ command: 'ls -la' }, ctx)).toEqual({
      title: 'About to run a shell command',
      detail: 'ls -la',
      kind: 'command',
    });
    expect(SHELL_TIMEOUT_MS).toBe(10_000);
    expect(shell.description).toContain('10 s');
  });
});
