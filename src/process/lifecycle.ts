/**
 * Process-level shutdown: real signals (SIGINT, SIGTERM, SIGHUP) run a graceful shutdown with a
 * deadline, then kill every tracked process group and exit 128+signo; an uncaught exception kills
 * them and exits 1; 'exit' kills them as a last resort. (In the TUI, Ctrl+C is a keypress in raw
 * mode, not SIGINT, so this does not interfere.)
 */
import os from 'node:os';
import type { ProcessGroupTracker } from './group-tracker.js';

export interface ShutdownOptions {
  tracker: ProcessGroupTracker;
  shutdown: (reason: string) => Promise<void>;
  graceMs?: number;
  onFatal?: (error: unknown) => void;
  /** Told of unhandled promise rejections, which are reported but not fatal. */
  onWarning?: (error: unknown) => void;
}

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export function installShutdownHandlers(options: ShutdownOptions): () => void {
  const { tracker } = options;
  let shuttingDown = false;

  const finish = (code: number) => {
    tracker.killAll();
    tracker.dispose();
    process.exit(code);
  };

  const onSignal = (signal: NodeJS.Signals) => {
    const code = 128 + (os.constants.signals[signal] ?? 0);
    if (shuttingDown) finish(code); // a second signal: stop waiting
    shuttingDown = true;
    // The run may finish on its own first (its turn was aborted): it must still exit with ours.
    process.exitCode = code;
    setTimeout(() => finish(code), options.graceMs ?? 3000);
    options.shutdown(signal).then(
      () => finish(code),
      () => finish(code),
    );
  };
  const onUncaught = (error: unknown) => {
    options.onFatal?.(error);
    finish(1);
  };
  const onRejection = (reason: unknown) => options.onWarning?.(reason);
  const onExit = () => tracker.killAll();

  for (const signal of SIGNALS) process.on(signal, onSignal);
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onRejection);
  process.on('exit', onExit);
  return () => {
    for (const signal of SIGNALS) process.off(signal, onSignal);
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onRejection);
    process.off('exit', onExit);
  };
}
