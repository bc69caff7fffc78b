/**
 * Shutdown handlers under real signals: a harness process (test/fixtures/mcp/orphan-harness.mjs)
 * installs them around a tracked victim process group, and we signal it / make it crash. Exit
 * codes, the graceful part, the grace deadline, a second signal, fatal errors and 'exit' are all
 * checked against a real process. As in group-tracker.test.ts, the harness imports the real
 * src/process modules, transpiled (types erased) into a temp folder, since node cannot import .ts.
 */
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { killGroup, ProcessGroupTracker } from '../../../src/process/group-tracker.js';
import { installShutdownHandlers } from '../../../src/process/lifecycle.js';
import { transpileProcessModules } from '../../helpers/process-modules.js';
import { isAlive, waitFor } from '../../helpers/wait.js';

const HARNESS = path.resolve(import.meta.dirname, '../../fixtures/mcp/orphan-harness.mjs');

let modules: string;
const groups: number[] = [];
const pids: number[] = [];

beforeAll(async () => {
  modules = await transpileProcessModules();
});

afterAll(async () => {
  await rm(modules, { recursive: true, force: true });
});

afterEach(() => {
  for (const pgid of groups.splice(0)) killGroup(pgid, 'SIGKILL');
  for (const pid of pids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

interface Harness {
  child: ChildProcessWithoutNullStreams;
  victim: number;
  output: () => string;
  exited: Promise<number | null>;
}

async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const child = spawn(process.execPath, [HARNESS, modules, 'lifecycle'], {
    stdio: 'pipe',
    env: { ...process.env, ...env },
  });
  pids.push(child.pid!);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const ready = await waitFor(() => /^ready (\d+) (\d+)$/m.exec(output) ?? undefined, {
    what: 'the harness',
  });
  const victim = Number(ready[1]);
  groups.push(victim, Number(ready[2]));
  return { child, victim, output: () => output, exited };
}

describe('installShutdownHandlers', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)(
    'on %s: graceful shutdown, then the groups die and the exit code is %i',
    async (signal, code) => {
      const h = await startHarness();
      h.child.kill(signal);
      expect(await h.exited).toBe(code);
      expect(h.output()).toContain(`shutdown ${signal}\n`);
      await waitFor(() => !isAlive(h.victim), { what: 'the victim group to die' });
    },
  );

  it('stops waiting for a shutdown that hangs at the grace deadline', async () => {
    const h = await startHarness({ SHUTDOWN: 'hang', GRACE_MS: '300' });
    const started = Date.now();
    h.child.kill('SIGTERM');
    expect(await h.exited).toBe(143);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    await waitFor(() => !isAlive(h.victim), { what: 'the victim group to die' });
  });

  it('a second signal during the shutdown exits at once', async () => {
    const h = await startHarness({ SHUTDOWN: 'hang', GRACE_MS: '60000' });
    h.child.kill('SIGTERM');
    await waitFor(() => h.output().includes('shutdown SIGTERM'), { what: 'the shutdown to begin' });
    h.child.kill('SIGINT');
    expect(await h.exited).toBe(130);
    await waitFor(() => !isAlive(h.victim), { what: 'the victim group to die' });
  });

  it('an uncaught exception is reported, the groups die and the exit code is 1', async () => {
    const h = await startHarness();
    h.child.stdin.write('throw\n');
    expect(await h.exited).toBe(1);
    expect(h.output()).toContain('fatal boom\n');
    await waitFor(() => !isAlive(h.victim), { what: 'the victim group to die' });
  });

  it('an unhandled rejection is reported as a warning and the run goes on', async () => {
    const h = await startHarness();
    h.child.stdin.write('reject\n');
    await waitFor(() => h.output().includes('unhandled promise rejection: nope'), { what: 'the warning' });
    expect(isAlive(h.victim)).toBe(true);
    h.child.stdin.write('exit\n');
    expect(await h.exited).toBe(7);
  });

  it('process.exit() anywhere still takes the groups down', async () => {
    const h = await startHarness();
    h.child.stdin.write('exit\n');
    expect(await h.exited).toBe(7);
    await waitFor(() => !isAlive(h.victim), { what: 'the victim group to die' });
  });

  it('a thread stuck in a blocking read does not hold the exit: the signal ends the process', async () => {
    const fifo = path.join(await mkdtemp(path.join(os.tmpdir(), 'geekagent-fifo-')), 'pipe');
    execFileSync('mkfifo', [fifo]);
    try {
      const h = await startHarness({ FIFO: fifo, GRACE_MS: '100' });
      const ended = new Promise<NodeJS.Signals | null>((resolve) =>
        h.child.once('exit', (_code, signal) => resolve(signal)),
      );
      h.child.kill('SIGTERM');
      // process.exit() would wait for the blocked thread forever; the signal's own default does not.
      expect(await ended).toBe('SIGTERM');
      await waitFor(() => !isAlive(h.victim), { what: 'the victim group to die' });
    } finally {
      await rm(path.dirname(fifo), { recursive: true, force: true });
    }
  });

  it('uninstall removes every listener it added', () => {
    const events = [
      'SIGINT',
      'SIGTERM',
      'SIGHUP',
      'uncaughtException',
      'unhandledRejection',
      'exit',
    ] as const;
    const before = events.map((event) => process.listenerCount(event));
    const uninstall = installShutdownHandlers({
      tracker: new ProcessGroupTracker({ reaper: false }),
      shutdown: async () => undefined,
    });
    expect(events.map((event) => process.listenerCount(event))).toEqual(before.map((count) => count + 1));
    uninstall();
    expect(events.map((event) => process.listenerCount(event))).toEqual(before);
  });
});
