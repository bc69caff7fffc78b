/**
 * Process-group tracking: killAll takes whole groups down, and the reaper kills every still-listed
 * group once the agent is gone — tested with a real parent that is SIGKILLed.
 *
 * A plain `node` child cannot import .ts, and building dist/ is not allowed in tests, so the real
 * src/process modules are transpiled (TypeScript's transpileModule, types erased, nothing else
 * changed) into a temp folder that the harness (test/fixtures/mcp/orphan-harness.mjs) imports.
 * That way the SIGKILL test runs the very tracker, spawn call and script the agent runs.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { killGroup, ProcessGroupTracker } from '../../../src/process/group-tracker.js';
import { REAPER_COMMAND } from '../../../src/process/reaper.js';
import { transpileProcessModules } from '../../helpers/process-modules.js';
import { descendants, isAlive, waitFor } from '../../helpers/wait.js';

const HARNESS = path.resolve(import.meta.dirname, '../../fixtures/mcp/orphan-harness.mjs');

let modules: string;
const groups: number[] = [];
const pids: number[] = [];
const trackers: ProcessGroupTracker[] = [];

beforeAll(async () => {
  modules = await transpileProcessModules();
});

afterAll(async () => {
  await rm(modules, { recursive: true, force: true });
});

afterEach(() => {
  for (const tracker of trackers.splice(0)) {
    tracker.killAll();
    tracker.dispose();
  }
  for (const pgid of groups.splice(0)) killGroup(pgid, 'SIGKILL');
  for (const pid of pids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

function tracker(options?: { reaper?: boolean }): ProcessGroupTracker {
  const created = new ProcessGroupTracker(options);
  trackers.push(created);
  return created;
}

/** A detached `sh` with a sleeping child: a group of two, like `sh -c server`. */
async function startGroup(): Promise<{ leader: number; member: number }> {
  const child = spawn('/bin/sh', ['-c', 'sleep 300 & wait'], { detached: true, stdio: 'ignore' });
  child.unref();
  const leader = child.pid!;
  groups.push(leader);
  const [member] = await waitFor(() => (descendants(leader).length > 0 ? descendants(leader) : undefined));
  return { leader, member: member! };
}

const groupAlive = (group: { leader: number; member: number }) =>
  isAlive(group.leader) || isAlive(group.member);

/** Starts the harness; resolves with its victim group and reaper once it is ready. */
async function startHarness(
  mode: string,
): Promise<{ harness: ChildProcessWithoutNullStreams; victim: number; reaper: number }> {
  const harness = spawn(process.execPath, [HARNESS, modules, mode], { stdio: 'pipe' });
  pids.push(harness.pid!);
  let output = '';
  harness.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const ready = await waitFor(() => /^ready (\d+) (\d+)$/m.exec(output) ?? undefined, {
    what: 'the harness',
  });
  const victim = Number(ready[1]);
  const reaper = Number(ready[2]);
  groups.push(victim);
  pids.push(reaper);
  return { harness, victim, reaper };
}

describe('ProcessGroupTracker', () => {
  it('killAll kills every member of every tracked group and forgets them', async () => {
    const t = tracker({ reaper: false });
    const a = await startGroup();
    const b = await startGroup();
    t.add(a.leader);
    t.add(b.leader);
    expect(t.size).toBe(2);
    t.killAll();
    await waitFor(() => !groupAlive(a) && !groupAlive(b), { what: 'both groups to die' });
    expect(t.size).toBe(0);
  });

  it('killAll with another signal keeps tracking the groups', async () => {
    const t = tracker({ reaper: false });
    const group = await startGroup();
    t.add(group.leader);
    t.killAll('SIGTERM');
    await waitFor(() => !groupAlive(group), { what: 'the group to take SIGTERM' });
    expect(t.size).toBe(1);
    t.remove(group.leader);
    expect(t.size).toBe(0);
  });

  it('ignores ids that are no process group of ours (kill(-1) would signal everything)', () => {
    const t = tracker();
    for (const bad of [0, 1, -5, 2.5, Number.NaN]) t.add(bad);
    expect(t.size).toBe(0);
    expect(t.reaperPid).toBeUndefined();
    expect(killGroup(1, 'SIGCONT')).toBe(false);
  });

  it('starts the reaper at the first add only, and not at all without one', async () => {
    const lazy = tracker();
    expect(lazy.reaperPid).toBeUndefined();
    const none = tracker({ reaper: false });
    const group = await startGroup();
    none.add(group.leader);
    expect(none.reaperPid).toBeUndefined();
    lazy.add(group.leader);
    const reaper = lazy.reaperPid!;
    expect(isAlive(reaper)).toBe(true);
    lazy.remove(group.leader);
    lazy.dispose();
    await waitFor(() => !isAlive(reaper), { what: 'the reaper to end' });
    expect(isAlive(group.leader)).toBe(true); // removed before dispose: spared
  });

  it('dispose(): the reaper kills what is still tracked, spares what was removed, and exits', async () => {
    const t = tracker();
    const kept = await startGroup();
    const released = await startGroup();
    t.add(kept.leader);
    t.add(released.leader);
    t.remove(released.leader);
    const reaper = t.reaperPid!;
    t.dispose();
    await waitFor(() => !groupAlive(kept) && !isAlive(reaper), {
      what: 'the tracked group and the reaper to end',
    });
    expect(groupAlive(released)).toBe(true);
  });

  it('a reaper that died is replaced, and the new one learns every group', async () => {
    const t = tracker();
    const first = await startGroup();
    const second = await startGroup();
    t.add(first.leader);
    const old = t.reaperPid!;
    process.kill(old, 'SIGKILL');
    await waitFor(() => t.reaperPid === undefined, { what: 'the tracker to notice' });
    t.add(second.leader);
    expect(t.reaperPid).not.toBe(old);
    t.dispose();
    await waitFor(() => !groupAlive(first) && !groupAlive(second), { what: 'both groups to die' });
  });

  it('the reaper script ignores malformed lines and kills only listed groups at EOF', async () => {
    const reaper = spawn(REAPER_COMMAND.file, [...REAPER_COMMAND.args], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    pids.push(reaper.pid!);
    const doomed = await startGroup();
    const spared = await startGroup();
    const exited = new Promise((resolve) => reaper.once('exit', resolve));
    reaper.stdin.write(
      `+${spared.leader}\n+abc\n+\n-x\n+0${spared.leader}\nnoise\n+${doomed.leader}\n-${spared.leader}\n`,
    );
    // No newline after the last line: it still counts.
    reaper.stdin.end(`+${doomed.member}`);
    expect(await exited).toBe(0);
    await waitFor(() => !groupAlive(doomed), { what: 'the listed group to die' });
    expect(groupAlive(spared)).toBe(true);
  });
});

describe('the reaper with a real parent', () => {
  it('kills the tracked group and exits once its parent is SIGKILLed', async () => {
    const { harness, victim, reaper } = await startHarness('plain');
    const [member] = await waitFor(() => (descendants(victim).length > 0 ? descendants(victim) : undefined));
    expect(isAlive(victim) && isAlive(reaper)).toBe(true);
    harness.kill('SIGKILL');
    await waitFor(() => !isAlive(victim) && !isAlive(member!) && !isAlive(reaper), {
      what: 'the victim group and the reaper to end',
    });
  });

  it('never keeps its parent alive: the parent exits on its own, then the reaper cleans up', async () => {
    const { harness, victim, reaper } = await startHarness('idle');
    // It may be gone already by the time it was seen ready.
    const code = harness.exitCode ?? (await new Promise((resolve) => harness.once('exit', resolve)));
    expect(code).toBe(0);
    await waitFor(() => !isAlive(victim) && !isAlive(reaper), { what: 'the victim and the reaper to end' });
  });
});
