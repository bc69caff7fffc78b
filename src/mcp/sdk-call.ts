/**
 * One `tools/call` through the SDK client: the per-request timeout (reset by progress, capped in
 * total), progress passed on, and the 'abort' listener the SDK leaves on the turn's signal taken
 * off once the call settles. What a failure means for the connection is connection.ts's business.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { abortListeners, addedListener } from '../util/abort-listeners.js';
import type { CallOptions } from './connection-options.js';

/** Progress resets the per-request timeout, but no call runs longer than this. */
const MAX_TOTAL_CALL_MS = 10 * 60_000;

export async function callThroughSdk(
  client: Client,
  toolName: string,
  args: Record<string, unknown>,
  timeoutMs: number,
  options: CallOptions,
): Promise<CallToolResult> {
  const { signal } = options;
  const listening = signal ? abortListeners(signal) : [];
  const call = client.callTool({ name: toolName, arguments: args }, undefined, {
    signal,
    timeout: timeoutMs,
    resetTimeoutOnProgress: true,
    maxTotalTimeout: Math.max(MAX_TOTAL_CALL_MS, timeoutMs),
    // Always asked for (a progress token), listener or not: only a call that carries one can have
    // its timeout restarted by the server's progress (`geekagent mcp call` shows none).
    onprogress: (p) => options.onProgress?.({ progress: p.progress, total: p.total, message: p.message }),
  });
  // The SDK adds an 'abort' listener to the signal of every request, synchronously, and never
  // removes it; a turn's signal serves many calls, so ours comes off once the call settles (else
  // they pile up, and aborting the turn later would "cancel" calls that finished long ago). Cheaper
  // than a child AbortController per call, which costs more than the rest of our call path.
  const sdkListener = signal ? addedListener(signal, listening) : undefined;
  try {
    return (await call) as CallToolResult;
  } finally {
    if (sdkListener) signal?.removeEventListener('abort', sdkListener);
  }
}
