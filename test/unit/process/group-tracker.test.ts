/**
 * Process-group tracking: killAll takes whole groups down, and the reaper script kills every
 * still-listed group when its pipe from the agent closes (what happens when the agent is SIGKILLed).
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { killGroup, ProcessGroupTracker, REAPER_SCRIPT } from '../../../src/process/group-tracker.js';
import { isAlive, waitFor } from '../../helpers/wait.js';

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) killGroup(pid, 'SIGKILL');
});

/** A detached `sh` with a sleeping child: a group of two, like `sh -c server`. */
function startGroup(): number {
  const child = spawn('/bin/sh', ['-c', 'sleep 300 & wait'], { detached: true, stdio: 'ignore' });
  child.unref();
  started.push(child.pid!);
  return child.pid!;
}

describe('ProcessGroupTracker', () => {
  it('killAll kills every tracked group and forgets it', async () => {
    const tracker = new ProcessGroupTracker({ reaper: false });
    const a = startGroup();
    const b = startGroup();
    tracker.add(a);
    tracker.add(b);
    tracker.killAll();
    await waitFor(() => !isAlive(a) && !isAlive(b), { what: 'both groups to die' });
    expect(tracker.size).toBe(0);
  });

  it('the reaper kills listed groups when the pipe closes, and spares removed ones', async () => {
    // The real script, driven the way the tracker drives it; closing our end is what the kernel
    // does when the agent dies by SIGKILL.
    const reaper = spawn('/bin/sh', ['-c', REAPER_SCRIPT], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    const doomed = startGroup();
    const spared = startGroup();
    reaper.stdin.write(`+${doomed}\n+${spared}\n-${spared}\n`);
    const reaperExit = new Promise((resolve) => reaper.once('exit', resolve));
    reaper.stdin.end();
    await reaperExit;
    await waitFor(() => !isAlive(doomed), { what: 'the listed group to die' });
    expect(isAlive(spared)).toBe(true);
  });

  it('a tracker’s own reaper kills what is still tracked once its pipe is gone', async () => {
    const tracker = new ProcessGroupTracker();
    const kept = startGroup();
    const released = startGroup();
    tracker.add(kept);
    tracker.add(released);
    tracker.remove(released);
    // dispose() ends the pipe exactly as the agent's death would.
    tracker.dispose();
    await waitFor(() => !isAlive(kept), { what: 'the tracked group to die' });
    expect(isAlive(released)).toBe(true);
  });
});
