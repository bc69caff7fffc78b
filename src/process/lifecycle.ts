/**
 * Process-level shutdown: real signals (SIGINT, SIGTERM, SIGHUP) run a graceful shutdown with a
 * deadline, then kill every tracked process group and exit 128+signo; an uncaught exception kills
 * them and exits 1 (an unhandled rejection is only reported); 'exit' kills them as a last resort.
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

export function installShutdownHandlers(options: ShutdownOptions): () => void {
  const { tracker } = options;
  const graceMs = options.graceMs ?? 3000;
  let shuttingDown = false;

  const finish = (code: number): void => {
    tracker.killAll();
    tracker.dispose();
    process.exit(code);
  };

  const onSignal = (signal: NodeJS.Signals): void => {
    const code = 128 + (os.constants.signals[signal] ?? 0);
    // A second signal means "now": stop waiting for the graceful part.
    if (shuttingDown) {
      finish(code);
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
    finish(1);
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

function printFatal(error: unknown): void {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`fatal: ${text}\n`);
}
