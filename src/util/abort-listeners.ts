/**
 * Finding the 'abort' listener a library added to a signal during one synchronous call, so it can
 * be taken off again: the MCP SDK never removes the one it adds per request.
 */
import { getEventListeners } from 'node:events';

type Listener = (...args: unknown[]) => unknown;

export function abortListeners(signal: AbortSignal): Listener[] {
  return getEventListeners(signal, 'abort') as Listener[];
}

/** The listener added since `before` was taken, if exactly one was; else undefined (leave all). */
export function addedListener(signal: AbortSignal, before: Listener[]): Listener | undefined {
  const now = abortListeners(signal);
  if (now.length !== before.length + 1) return undefined;
  const added = now[now.length - 1];
  return added && !before.includes(added) ? added : undefined;
}
