/** Test helpers: wait for a condition with a deadline (never a fixed sleep), and process liveness. */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Waits until `check` stops throwing, re-checking it each time `subscribe`'s event fires (a frame
 * drawn, a session change): event-ordered, so a busy machine makes it slower, never failing. The
 * only clock is a stuck-guard far above any real wait (and under the 60 s test timeout), so a
 * check that never passes fails with its own message rather than a bare timeout.
 */
export function untilEvent(
  subscribe: (listener: () => void) => () => void,
  check: () => void,
  stuckAfterMs = 45_000,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let lastError: unknown;
    let unsubscribe = () => {};
    const guard = setTimeout(() => {
      unsubscribe();
      reject(lastError ?? new Error('the condition never held'));
    }, stuckAfterMs);
    const attempt = () => {
      try {
        check();
      } catch (error) {
        lastError = error;
        return;
      }
      clearTimeout(guard);
      unsubscribe();
      resolve();
    };
    unsubscribe = subscribe(attempt);
    attempt();
  });
}

/**
 * `promise`'s value, or a failure naming `what` once it has not settled after `stuckAfterMs`: a
 * stuck-guard for something that would otherwise hang the test, never a speed goal (those are bench
 * rows), so it sits far above any real wait and under the 60 s test timeout.
 */
export function settles<T>(promise: Promise<T>, what: string, stuckAfterMs = 30_000): Promise<T> {
  let guard: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    guard = setTimeout(
      () => reject(new Error(`still waiting after ${stuckAfterMs} ms for ${what}`)),
      stuckAfterMs,
    );
  });
  return Promise.race([promise, stuck]).finally(() => clearTimeout(guard));
}

export async function waitFor<T>(
  condition: () => T | undefined | false | Promise<T | undefined | false>,
  options: { timeoutMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what ?? 'a condition'}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Alive means running: a zombie (exited, not yet reaped — PID 1 here may never reap) is dead. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Pids of the live descendants of `pid` (children, grandchildren, …), from /proc. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirProc()) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(after[1]);
      if (after[0] === 'Z') continue;
      children.set(ppid, [...(children.get(ppid) ?? []), entry]);
    } catch {
      // the process ended while we looked
    }
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

function readdirProc(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}
