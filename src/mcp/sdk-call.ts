/**
 * Requests through the SDK client — `tools/call`, `prompts/get`, `resources/read` — each with the
 * server's per-request timeout and the turn's signal (the SDK sends `notifications/cancelled` when
 * it aborts), and the 'abort' listener the SDK leaves on that signal taken off once the request
 * settles. A tool call's timeout is also reset by progress (capped in total). What a failure means
 * for the connection is connection.ts's business.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { abortListeners, addedListener } from '../util/abort-listeners.js';
import type { CallOptions } from './connection-options.js';

/** Progress resets the per-request timeout, but no call runs longer than this. */
const MAX_TOTAL_CALL_MS = 10 * 60_000;

export function callThroughSdk(
  client: Client,
  toolName: string,
  args: Record<string, unknown>,
  timeoutMs: number,
  options: CallOptions,
): Promise<CallToolResult> {
  const { signal } = options;
  return onSignal(
    signal,
    () =>
      client.callTool({ name: toolName, arguments: args }, undefined, {
        signal,
        timeout: timeoutMs,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: Math.max(MAX_TOTAL_CALL_MS, timeoutMs),
        // Always asked for (a progress token), listener or not: only a call that carries one can have
        // its timeout restarted by the server's progress (`geekagent mcp call` shows none).
        onprogress: (p) => options.onProgress?.({ progress: p.progress, total: p.total, message: p.message }),
      }) as Promise<CallToolResult>,
  );
}

export function getPromptThroughSdk(
  client: Client,
  name: string,
  args: Record<string, string>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<GetPromptResult> {
  return onSignal(signal, () => client.getPrompt({ name, arguments: args }, { signal, timeout: timeoutMs }));
}

export function readResourceThroughSdk(
  client: Client,
  uri: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<ReadResourceResult> {
  return onSignal(signal, () => client.readResource({ uri }, { signal, timeout: timeoutMs }));
}

/**
 * The SDK adds an 'abort' listener to the signal of every request, synchronously, and never
 * removes it; a turn's signal serves many requests, so ours comes off once the request settles
 * (else they pile up, and aborting the turn later would "cancel" requests that finished long ago).
 * Cheaper than a child AbortController per call, which costs more than the rest of our call path.
 */
function onSignal<T>(signal: AbortSignal | undefined, send: () => Promise<T>): Promise<T> {
  if (!signal) return send();
  const listening = abortListeners(signal);
  const request = send();
  const sdkListener = addedListener(signal, listening);
  if (!sdkListener) return request;
  const off = () => signal.removeEventListener('abort', sdkListener);
  // Not an async function: one promise on the way of every call, not a frame and its awaits.
  return request.then(
    (value) => {
      off();
      return value;
    },
    (error: unknown) => {
      off();
      throw error;
    },
  );
}
