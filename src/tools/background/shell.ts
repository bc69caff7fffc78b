/**
 * One background shell: its state, its unread output (bounded; the log file has it all), and the
 * waits for its next output or end. BackgroundShells (shells.ts) starts, reads and stops them.
 */
import type { ChildProcess } from 'node:child_process';
import type { ShellLog } from './log-file.js';

/** Unread output kept per shell; older unread output is dropped (the log file has it all). */
export const UNREAD_KEPT = 64 * 1024;

export type ShellState =
  | { kind: 'running' }
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null }
  /** Stopped by shell_kill, /shells kill or the session's end. */
  | { kind: 'killed' };

export interface ShellInfo {
  id: string;
  command: string;
  pid: number | undefined;
  state: ShellState;
  startedAt: number;
  /** Its output file (all of it, up to the log's cap); undefined when none could be made. */
  log: string | undefined;
  /** The run_shell call that started it (an editor shows that call in progress until it settles). */
  callId: string | undefined;
  /** It ended, but processes it started in its group still run (shell_kill stops them). */
  lingering: boolean;
}

/** What a read took: the unread output since the last read, and how much of it was dropped. */
export interface ShellRead {
  info: ShellInfo;
  text: string;
  /** Characters that arrived unread but no longer fit in memory (only in the log). */
  dropped: number;
}

/** Called once when the shell is done with the tail of its stderr (see ShellLaunch.finish). */
export type ShellRelease = (stderr: string) => string | undefined;

export class Shell {
  state: ShellState = { kind: 'running' };
  unread = '';
  dropped = 0;
  stderrTail = '';
  /** shell_kill or the session's end is stopping it: however it ends, it was killed. */
  stopping = false;
  /** Its end was read or it was stopped (see ShellSettled). */
  settled = false;
  /** It ended, but processes of its group are left (still tracked). */
  lingering = false;
  readonly startedAt = Date.now();
  /** Resolves when the shell is done (pipes closed, or stopped). */
  readonly done: Promise<void>;
  private resolveDone!: () => void;
  /** Wakes whoever waits for new output or the end. */
  private waiters = new Set<() => void>();

  constructor(
    readonly id: string,
    readonly command: string,
    readonly child: ChildProcess,
    readonly log: ShellLog | undefined,
    readonly release: ShellRelease | undefined,
    readonly callId: string | undefined,
  ) {
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
  }

  get running(): boolean {
    return this.state.kind === 'running';
  }

  info(): ShellInfo {
    return {
      id: this.id,
      command: this.command,
      pid: this.child.pid,
      state: this.state,
      startedAt: this.startedAt,
      log: this.log?.file,
      callId: this.callId,
      lingering: this.lingering && this.child.pid !== undefined && groupAlive(this.child.pid),
    };
  }

  push(chunk: string): void {
    this.log?.append(chunk);
    this.unread += chunk;
    if (this.unread.length > UNREAD_KEPT) {
      const cut = this.unread.length - UNREAD_KEPT;
      this.dropped += cut;
      this.unread = this.unread.slice(cut);
    }
    this.wake();
  }

  take(): ShellRead {
    const read = { info: this.info(), text: this.unread, dropped: this.dropped };
    this.unread = '';
    this.dropped = 0;
    return read;
  }

  end(state: ShellState): void {
    if (!this.running) return;
    this.state = state;
    this.log?.close();
    this.resolveDone();
    this.wake();
  }

  /** Resolves at the next output or end, or after `ms`, or when `signal` aborts. */
  changed(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/** Whether any process of group `pgid` is left (signal 0 only checks). */
export function groupAlive(pgid: number): boolean {
  if (!Number.isSafeInteger(pgid) || pgid <= 1) return false;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
