/**
 * Tracks the process groups the agent starts (each MCP server runs in its own group) so every way
 * the agent ends can take them down: killAll() for normal exits and signals, and a reaper process
 * (see reaper.ts) for a SIGKILLed agent, which runs no code at all.
 */
import { type ReaperHandle, startReaper } from './reaper.js';

/**
 * Signals a whole process group; false when it is already gone (ESRCH) or not ours (EPERM).
 * Refuses pgid 0 and 1: `kill(-1)` would signal every process we may signal, `kill(-0)` our own.
 */
export function killGroup(pgid: number, signal: NodeJS.Signals): boolean {
  if (!isGroupId(pgid)) return false;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

function isGroupId(pgid: number): boolean {
  return Number.isSafeInteger(pgid) && pgid > 1;
}

export class ProcessGroupTracker {
  private readonly groups = new Set<number>();
  /** Single processes in the agent's own group (a library's helpers): killed by pid, not group. */
  private readonly processes = new Set<number>();
  private readonly useReaper: boolean;
  private reaper: ReaperHandle | undefined;
  /** /bin/sh could not start (no POSIX shell): stop trying, killAll() still works. */
  private reaperFailed = false;

  constructor(options: { reaper?: boolean } = {}) {
    this.useReaper = (options.reaper ?? true) && process.platform !== 'win32';
  }

  get size(): number {
    return this.groups.size;
  }

  /** The reaper's pid while one runs (for diagnostics and tests). */
  get reaperPid(): number | undefined {
    return this.reaper?.pid;
  }

  /**
   * Starts the reaper now, before a process is spawned: then only the synchronous `add` right after
   * the spawn stands between the new group and the reaper's list (starting the reaper takes ms,
   * time in which an agent killed outright would leave the group behind).
   */
  prepare(): void {
    this.ensureReaper();
  }

  add(pgid: number): void {
    if (!isGroupId(pgid) || this.groups.has(pgid)) return;
    this.groups.add(pgid);
    // Started lazily: a run that never starts a server never pays for a reaper.
    if (!this.ensureReaper()) this.reaper?.tell(`+${pgid}`);
  }

  /**
   * A helper process a library started in the agent's own group (the sandbox's proxy bridges):
   * it would outlive a SIGKILLed agent, so the reaper kills it by pid. Nothing else may kill it:
   * its library ends it on a normal exit.
   */
  addProcess(pid: number): void {
    if (!isGroupId(pid) || this.processes.has(pid)) return;
    this.processes.add(pid);
    if (!this.ensureReaper()) this.reaper?.tell(`p${pid}`);
  }

  remove(pgid: number): void {
    if (!this.groups.delete(pgid)) return;
    this.reaper?.tell(`-${pgid}`);
  }

  /** Synchronous, so it is safe in process.on('exit'); groups already gone are ignored. */
  killAll(signal: NodeJS.Signals = 'SIGKILL'): void {
    for (const pgid of this.groups) killGroup(pgid, signal);
    // After SIGKILL nothing is left to track; unlisting also spares the reaper a later kill of a
    // group id the system may have reused by then.
    if (signal === 'SIGKILL') for (const pgid of [...this.groups]) this.remove(pgid);
  }

  /** Ends the reaper cleanly (it kills whatever is still listed on its way out). */
  dispose(): void {
    const reaper = this.reaper;
    this.reaper = undefined;
    reaper?.end();
  }

  /** Starts the reaper if needed; true when it was started now (it was told every group). */
  private ensureReaper(): boolean {
    if (this.reaper || !this.useReaper || this.reaperFailed) return false;
    const reaper = startReaper((reason) => {
      if (this.reaper === reaper) this.reaper = undefined;
      if (reason === 'failed') this.reaperFailed = true;
    });
    this.reaper = reaper;
    // A fresh reaper (first add, or the previous one died) must learn every live group.
    for (const pgid of this.groups) reaper.tell(`+${pgid}`);
    for (const pid of this.processes) reaper.tell(`p${pid}`);
    return true;
  }
}
