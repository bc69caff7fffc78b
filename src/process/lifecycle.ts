/**
 * Process-level shutdown: real signals (SIGINT, SIGTERM, SIGHUP) run a graceful shutdown with a
 * deadline (the process is gone within 2 s, whatever a tool is doing), then kill every tracked
 * process group and exit 128+signo; an uncaught exception kills them and exits 1 (an unhandled
 * rejection is only reported); 'exit' kills them as a last resort. `exitProcess` ends the process
 * even when a thread of libuv's pool is stuck in a blocking call.
 *
 * In the TUI, Ctrl+C is a keypress in Ink's raw mode, not SIGINT, so none of this runs for it and
 * nothing here touches the terminal mode; it only has to be right for real signals.
 */
import os from 'node:os';
import type { ProcessGroupTracker } from './group-tracker.js';

export interface ShutdownOptions {
  tracker: ProcessGroupTracker;
  /** Graceful close (abort the turn, close servers); `reason` is the signal name. */
  shutdown: (reason: string) => Promise<void>;
  graceMs?: number;
  /** Reports an uncaught exception before the exit; default: stderr. */
  onFatal?: (error: unknown) => void;
}

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/**
 * The graceful part of any shutdown (a signal's, or the TUI's cleanup after /exit): with the kills
 * and the exit, the process is gone well within 2 s.
 */
export const SHUTDOWN_GRACE_MS = 1000;
/** How long pending file-system/DNS requests get to finish before the exit stops waiting. */
const SETTLE_MS = 200;
const SETTLE_POLL_MS = 10;

export function installShutdownHandlers(options: ShutdownOptions): () => void {
  const { tracker } = options;
  const graceMs = options.graceMs ?? SHUTDOWN_GRACE_MS;
  let shuttingDown = false;

  const finish = (code: number, now = false): void => {
    tracker.killAll();
    tracker.dispose();
    if (now) exitProcess(code);
    else void exitWhenSettled(code);
  };

  const onSignal = (signal: NodeJS.Signals): void => {
    const code = 128 + (os.constants.signals[signal] ?? 0);
    // A second signal means "now": stop waiting for the graceful part.
    if (shuttingDown) {
      finish(code, true);
      return;
    }
    shuttingDown = true;
    // The run may end on its own during the shutdown (its turn was aborted): it must still exit
    // with the signal's code, not 0.
    process.exitCode = code;
    const deadline = setTimeout(() => finish(code), graceMs);
    Promise.resolve()
      .then(() => options.shutdown(signal))
      .catch(() => undefined)
      .finally(() => {
        clearTimeout(deadline);
        finish(code);
      });
  };

  // Installing these listeners replaces Node's own crash report, so we must print it ourselves.
  const onFatal = (error: unknown): void => {
    try {
      (options.onFatal ?? printFatal)(error);
    } catch {
      // a failing reporter must not stop the cleanup
    }
    finish(1, true);
  };

  // A stray rejection (a library's forgotten promise) must not end a session: it is reported
  // as a warning — the TUI shows warnings as transcript lines, print mode on stderr.
  const onRejection = (reason: unknown): void => {
    const text = reason instanceof Error ? reason.message : String(reason);
    process.emitWarning(`unhandled promise rejection: ${text}`);
  };

  const onExit = (): void => tracker.killAll();

  for (const signal of SIGNALS) process.on(signal, onSignal);
  process.on('uncaughtException', onFatal);
  process.on('unhandledRejection', onRejection);
  process.on('exit', onExit);
  return () => {
    for (const signal of SIGNALS) process.off(signal, onSignal);
    process.off('uncaughtException', onFatal);
    process.off('unhandledRejection', onRejection);
    process.off('exit', onExit);
  };
}

/**
 * Ends the process with `code`. At exit libuv joins the threads of its pool, so one stuck in a
 * blocking call (open() of a FIFO nobody writes, a hung network mount, a DNS lookup) would keep
 * process.exit() waiting forever. With such a request pending, the process ends by a signal
 * instead, which joins nothing: the signal behind `code` (a shell sees the same 128+n), else
 * SIGKILL. Whatever must happen before the exit (killing process groups) must be done already.
 */
export function exitProcess(code: number): never {
  if (blockingRequestsPending()) {
    const signal = SIGNALS.find((name) => 128 + (os.constants.signals[name] ?? 0) === code);
    if (signal) {
      // Without listeners the signal's default action applies: the process ends here.
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.kill(process.pid, 'SIGKILL');
  }
  return process.exit(code);
}

/** exitProcess, after giving pending requests (a log's last write) a moment to finish. */
export async function exitWhenSettled(code: number): Promise<never> {
  const deadline = Date.now() + SETTLE_MS;
  while (blockingRequestsPending() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
  return exitProcess(code);
}

/** Requests that run on libuv's thread pool: file-system calls and name lookups. */
function blockingRequestsPending(): boolean {
  return process
    .getActiveResourcesInfo()
    .some(
      (name) => name.startsWith('FSReq') || name.startsWith('GetAddrInfo') || name.startsWith('GetNameInfo'),
    );
}

function printFatal(error: unknown): void {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`fatal: ${text}\n`);
}
