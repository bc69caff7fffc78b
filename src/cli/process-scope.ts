/**
 * Process-level scope of one CLI run: a tracker for every process group the run starts, and
 * signal/crash handlers that shut down cleanly — so no server outlives the command however it ends.
 */
import { ProcessGroupTracker } from '../process/group-tracker.js';
import { installShutdownHandlers } from '../process/lifecycle.js';
import { errorMessage } from '../util/errors.js';

export interface ProcessScope {
  tracker: ProcessGroupTracker;
  /** Work to run when a signal ends the run (abort the turn, close servers). */
  onShutdown(handler: () => Promise<void>): void;
  /** Synchronous undo before a crash report is printed (the TUI leaves the alternate screen). */
  beforeFatal(handler: () => void): void;
}

export async function withProcessScope<T>(
  stderr: NodeJS.WritableStream,
  body: (scope: ProcessScope) => Promise<T>,
): Promise<T> {
  const tracker = new ProcessGroupTracker();
  const handlers: Array<() => Promise<void>> = [];
  const fatalHandlers: Array<() => void> = [];
  const uninstall = installShutdownHandlers({
    tracker,
    shutdown: async () => {
      await Promise.allSettled(handlers.map((handler) => handler()));
    },
    onFatal: (error) => {
      for (const handler of fatalHandlers) {
        try {
          handler();
        } catch {
          // the report matters more than a clean terminal
        }
      }
      stderr.write(`geekagent: fatal error: ${errorMessage(error)}\n`);
    },
  });
  try {
    return await body({
      tracker,
      onShutdown: (handler) => handlers.push(handler),
      beforeFatal: (handler) => fatalHandlers.push(handler),
    });
  } finally {
    tracker.dispose();
    uninstall();
  }
}
