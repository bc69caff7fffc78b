/**
 * The session's background shells: each a `/bin/sh -c` line in its own process group, registered
 * with the run's ProcessGroupTracker (so the reaper takes it down if the agent is SIGKILLed), its
 * merged output appended to a log file and kept unread in memory up to a bound until
 * `shell_output` takes it. `stopAll` ends every group (session end, Ctrl+C, SIGTERM).
 */
import { spawn } from 'node:child_process';
import { killGroup, type ProcessGroupTracker } from '../../process/group-tracker.js';
import { ToolError } from '../types.js';
import type { ShellLog } from './log-file.js';
import {
  groupAlive,
  Shell,
  type ShellInfo,
  type ShellRead,
  type ShellRelease,
  type ShellState,
} from './shell.js';

export { type ShellInfo, type ShellRead, type ShellState, UNREAD_KEPT } from './shell.js';

/** How long `run_shell` with `background` waits for the first output before it returns. */
export const FIRST_OUTPUT_WAIT_MS = 1000;
/** After SIGTERM, how long a shell gets before its group is SIGKILLed. */
export const KILL_GRACE_MS = 1000;
/** Running shells at once; one more is refused (stop one first). */
export const MAX_RUNNING = 10;
/** Ended shells kept (listed, readable); older ones are forgotten, their logs stay. */
export const ENDED_KEPT = 20;

/**
 * A shell's run_shell call is settled once the model has seen it end (a read after its end) or it
 * was stopped: until then a face may show that call as still in progress.
 */
export interface ShellSettled {
  callId: string;
  info: ShellInfo;
}

export interface ShellLaunch {
  /** What the model asked for (shown, listed). */
  command: string;
  /** What `/bin/sh -c` runs: the command, or the sandbox's wrapped line. */
  line: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * Called once when the shell is done (its pipes closed or it was stopped) with the tail of its
   * stderr: the sandbox's release and its note (a refusal), which joins the unread output.
   */
  finish?: ShellRelease;
  /** The run_shell call starting it. */
  callId?: string;
}

export interface BackgroundShellsOptions {
  tracker?: ProcessGroupTracker;
  /** Creates the log file of shell `id`; a failure leaves the shell without one (noted). */
  openLog?: (id: string) => ShellLog;
}

export class BackgroundShells {
  private readonly shells = new Map<string, Shell>();
  private next = 1;
  private readonly listeners = new Set<() => void>();
  private readonly settleListeners = new Set<(settled: ShellSettled) => void>();
  private closed = false;

  constructor(private readonly options: BackgroundShellsOptions = {}) {}

  /** Called when a shell starts, prints its first output, ends or is removed (the panel redraws). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called once per shell when its run_shell call is settled (ShellSettled). */
  onSettle(listener: (settled: ShellSettled) => void): () => void {
    this.settleListeners.add(listener);
    return () => this.settleListeners.delete(listener);
  }

  /** Whether call `callId` started a shell not yet settled (its call stays in progress). */
  inProgress(callId: string): boolean {
    return [...this.shells.values()].some((shell) => shell.callId === callId && !shell.settled);
  }

  list(): ShellInfo[] {
    return [...this.shells.values()].map((shell) => shell.info());
  }

  get runningCount(): number {
    return [...this.shells.values()].filter((shell) => shell.running).length;
  }

  /**
   * Starts `launch` and resolves once it printed something, ended, `FIRST_OUTPUT_WAIT_MS` passed
   * or `signal` aborted — whichever comes first — with what it printed so far. An abort in that
   * window stops it: the call was cancelled, so nobody would know the shell exists.
   */
  async start(launch: ShellLaunch, signal: AbortSignal): Promise<ShellRead> {
    if (this.closed) throw new ToolError('run_shell: the session is ending; no background shell starts now');
    if (this.runningCount >= MAX_RUNNING)
      throw new ToolError(
        `run_shell: ${MAX_RUNNING} background shells are running already; stop one with shell_kill first`,
      );
    const id = `shell-${this.next++}`;
    let log: ShellLog | undefined;
    let logProblem: string | undefined;
    try {
      log = this.options.openLog?.(id);
    } catch (error) {
      logProblem = `(its output is not kept in a file: ${(error as Error).message})\n`;
    }
    this.options.tracker?.prepare();
    const child = spawn('/bin/sh', ['-c', launch.line], {
      cwd: launch.cwd,
      env: launch.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const shell = new Shell(id, launch.command, child, log, launch.finish, launch.callId);
    const pid = child.pid;
    if (pid !== undefined) this.options.tracker?.add(pid);
    this.shells.set(id, shell);
    if (logProblem) shell.push(logProblem);

    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => shell.push(chunk));
    }
    child.stderr?.on('data', (chunk: string) => {
      shell.stderrTail = (shell.stderrTail + chunk).slice(-16_384);
    });
    let exit: { code: number | null; signal: NodeJS.Signals | null } = { code: null, signal: null };
    child.on('exit', (code, exitSignal) => {
      exit = { code, signal: exitSignal };
    });
    child.on('error', (error) => {
      shell.push(`cannot start /bin/sh: ${error.message}\n`);
      this.finish(shell, { kind: 'exited', code: null, signal: null });
    });
    // 'close' waits for the pipes too: output of its background children is not lost.
    child.on('close', () => this.finish(shell, { kind: 'exited', ...exit }));
    this.changed();

    if (shell.unread === '' || logProblem) await shell.changed(FIRST_OUTPUT_WAIT_MS, signal);
    if (signal.aborted) {
      await this.stop(id);
      throw new ToolError('run_shell: cancelled');
    }
    return this.take(shell);
  }

  /** The unread output of one shell (`id`) or of all, waiting up to `waitMs` for something new. */
  async read(id: string | undefined, waitMs: number, signal: AbortSignal): Promise<ShellRead[]> {
    const shells = id === undefined ? [...this.shells.values()] : [this.get(id, 'shell_output')];
    const quiet = shells.every((shell) => shell.unread === '' && shell.dropped === 0 && shell.running);
    if (waitMs > 0 && shells.length > 0 && quiet) {
      // The first change ends the wait; the others' waits are dropped with it.
      const first = new AbortController();
      const either = AbortSignal.any([signal, first.signal]);
      await Promise.race(shells.map((shell) => shell.changed(waitMs, either)));
      first.abort();
    }
    return shells.map((shell) => this.take(shell));
  }

  /**
   * Stops shell `id` — SIGTERM to its group, SIGKILL after KILL_GRACE_MS — and resolves once it is
   * done, with what it printed unread. A shell that already ended is only read.
   */
  async stop(id: string): Promise<ShellRead> {
    const shell = this.get(id, 'shell_kill');
    if (shell.running || shell.lingering) await this.terminate(shell);
    return this.take(shell);
  }

  /** Stops every running shell (the session ends); whatever is left of their groups is killed. */
  async stopAll(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.shells.values()].map((shell) => this.terminate(shell)));
  }

  /** A read; one that sees the end settles the shell's call. */
  private take(shell: Shell): ShellRead {
    const read = shell.take();
    if (!shell.running) this.settle(shell);
    return read;
  }

  private settle(shell: Shell): void {
    if (shell.settled) return;
    shell.settled = true;
    const { callId } = shell;
    if (callId === undefined) return;
    for (const listener of this.settleListeners) listener({ callId, info: shell.info() });
  }

  private get(id: string, tool: string): Shell {
    const shell = this.shells.get(id);
    if (!shell) {
      const known = [...this.shells.keys()];
      throw new ToolError(
        `${tool}: no background shell "${id}"${known.length > 0 ? ` (this session has: ${known.join(', ')})` : ' (none were started in this session)'}`,
      );
    }
    return shell;
  }

  private async terminate(shell: Shell): Promise<void> {
    const pid = shell.child.pid;
    if (pid === undefined) return;
    // An ended shell's group may still hold children that closed their output (`nohup x &`);
    // an empty group's id may belong to someone else by now, so only a lingering one is killed.
    if (!shell.running) {
      if (shell.lingering) {
        killGroup(pid, 'SIGKILL');
        this.options.tracker?.remove(pid);
        shell.lingering = false;
        this.changed();
      }
      return;
    }
    shell.stopping = true;
    killGroup(pid, 'SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), KILL_GRACE_MS);
    });
    const ended = await Promise.race([shell.done.then(() => 'done' as const), late]);
    clearTimeout(timer);
    killGroup(pid, 'SIGKILL');
    if (ended === 'late') {
      // A process that left the group (setsid) may still hold the pipes open: do not wait for it.
      shell.child.stdout?.destroy();
      shell.child.stderr?.destroy();
    }
    this.finish(shell, { kind: 'killed' });
    this.settle(shell);
  }

  private finish(shell: Shell, state: ShellState): void {
    if (!shell.running) return;
    let note: string | undefined;
    try {
      note = shell.release?.(shell.stderrTail);
    } catch (error) {
      note = `(the sandbox could not be released: ${(error as Error).message})`;
    }
    if (note) shell.push(`${note}\n`);
    const pid = shell.child.pid;
    // Keep a group that still has members listed, so the session's end (or the reaper) ends them.
    if (pid !== undefined) {
      shell.lingering = !shell.stopping && groupAlive(pid);
      if (!shell.lingering) this.options.tracker?.remove(pid);
    }
    shell.end(shell.stopping ? { kind: 'killed' } : state);
    this.forgetOldest();
    this.changed();
  }

  /** Keeps memory bounded over a long session: the oldest ended shells beyond ENDED_KEPT go. */
  private forgetOldest(): void {
    const ended = [...this.shells.values()].filter((shell) => !shell.running);
    for (const shell of ended.slice(0, Math.max(0, ended.length - ENDED_KEPT))) {
      // A group with processes left stays listed (the session's end stops it).
      if (shell.lingering) continue;
      this.settle(shell);
      this.shells.delete(shell.id);
    }
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
