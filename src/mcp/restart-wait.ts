/**
 * Waiting out a restart in progress: a request that arrives while its server is starting or
 * restarting (connection.ts) waits here for the outcome, bounded by the request's own timeout and
 * its cancel, instead of failing and making the model try again because of our own restart. The
 * connection calls `changed()` on every state change; a waiter looks at the state each time.
 */
import type { ServerState } from './status.js';

/** Whether `state` is on its way to `connected`: a start under way or a restart scheduled. */
export function restartInProgress(state: ServerState): boolean {
  return state.state === 'connecting' || (state.state === 'failed' && state.retry !== undefined);
}

export class StateWaits {
  private readonly waiting = new Set<() => void>();

  /** The connection's state changed: every waiter looks again. */
  changed(): void {
    for (const check of [...this.waiting]) check();
  }

  /**
   * Resolves `true` once `done()` holds (at once, or after a state change), `false` when `ms` pass
   * or `signal` aborts first (the caller tells the two apart by the signal).
   */
  until(done: () => boolean, ms: number, signal: AbortSignal | undefined): Promise<boolean> {
    if (done()) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const finish = (value: boolean) => {
        clearTimeout(timer);
        this.waiting.delete(check);
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      };
      const check = () => {
        if (done()) finish(true);
      };
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(false), ms);
      this.waiting.add(check);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
