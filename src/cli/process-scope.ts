/**
 * Process-level scope of one CLI run: a tracker for every process group the run starts, and
 * signal/crash handlers that shut down cleanly — so no server outlives the command however it ends.
 * Cleanup at the end of a run is bounded too: whatever is still listed then is killed.
 */
import { ProcessGroupTracker } from '../process/group-tracker.js';
import { installShutdownHandlers, SHUTDOWN_GRACE_MS } from '../process/lifecycle.js';
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
    // Normally nothing is left; after a cleanup that ran out of time, its servers are.
    tracker.killAll();
    tracker.dispose();
    uninstall();
  }
}

/**
 * Waits for `work` (closing servers, saving history) at most `ms`: a server that ignores every
 * signal, or a file system stuck under a tool, must not hold the exit. Never rejects.
 */
export async function cleanupWithin(work: Promise<unknown>, ms = SHUTDOWN_GRACE_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([
    work.then(
      () => undefined,
      () => undefined,
    ),
    late,
  ]);
  clearTimeout(timer);
}
