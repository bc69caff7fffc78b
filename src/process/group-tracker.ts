/**
 * Tracks the process groups the agent starts (each MCP server runs in its own group) so every way
 * the agent ends can take them down. Normal exits and signals call killAll(); for SIGKILL of the
 * agent — which runs no code at all — a tiny reaper process holds a pipe from us and kills every
 * group still listed when that pipe closes.
 *
 * Why a reaper: the alternatives are sweeping leftovers at the next start (orphans live until
 * then, and pid reuse makes the sweep risky) or trusting servers to exit when stdin closes
 * (grandchildren such as `npx`/`sh -c` children don't). The reaper acts at once and costs one
 * `/bin/sh` (~1 MB), not a node process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Socket } from 'node:net';

/** Reads `+<pgid>` / `-<pgid>` lines; at EOF (the agent is gone) SIGKILLs what is left. */
export const REAPER_SCRIPT = [
  "trap '' INT HUP TERM",
  "groups=' '",
  "remove() { kept=' '; for g in $groups; do [ \"$g\" = \"$1\" ] || kept=\"$kept$g \"; done; groups=\"$kept\"; }",
  'while IFS= read -r line; do',
  '  case "$line" in',
  '    +*) groups="$groups${line#+} " ;;',
  '    -*) remove "${line#-}" ;;',
  '  esac',
  'done',
  // `kill -9 -PGID` is the spelling dash and bash both accept for a whole group.
  'for g in $groups; do kill -9 "-$g" 2>/dev/null; done',
].join('\n');

export function killGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is already gone
  }
}

export class ProcessGroupTracker {
  private readonly groups = new Set<number>();
  private reaper: ChildProcess | undefined;
  private readonly useReaper: boolean;

  constructor(options: { reaper?: boolean } = {}) {
    this.useReaper = options.reaper ?? true;
  }

  get size(): number {
    return this.groups.size;
  }

  add(pgid: number): void {
    this.groups.add(pgid);
    this.tellReaper(`+${pgid}`);
  }

  remove(pgid: number): void {
    if (!this.groups.delete(pgid)) return;
    this.tellReaper(`-${pgid}`);
  }

  /** Synchronous, so it is safe in process.on('exit'). */
  killAll(signal: NodeJS.Signals = 'SIGKILL'): void {
    for (const pgid of this.groups) killGroup(pgid, signal);
    if (signal === 'SIGKILL') {
      for (const pgid of [...this.groups]) this.remove(pgid);
    }
  }

  /** Ends the reaper; anything still tracked is killed by it on the way out. */
  dispose(): void {
    const reaper = this.reaper;
    this.reaper = undefined;
    reaper?.stdin?.end();
  }

  private tellReaper(line: string): void {
    if (!this.useReaper) return;
    const reaper = this.ensureReaper();
    if (reaper?.stdin?.writable) reaper.stdin.write(`${line}\n`);
  }

  private ensureReaper(): ChildProcess | undefined {
    if (this.reaper) return this.reaper;
    const reaper = spawn('/bin/sh', ['-c', REAPER_SCRIPT], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    reaper.on('error', () => undefined);
    reaper.stdin?.on('error', () => undefined);
    // Never keep the agent alive for the reaper's sake.
    reaper.unref();
    (reaper.stdin as Socket | null)?.unref();
    this.reaper = reaper;
    return reaper;
  }
}
