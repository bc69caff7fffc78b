/**
 * What a connection tries next after one connect over one transport failed (connection.ts runs
 * the tries; each kind at most once per start):
 * - `sse`: an `http` entry whose Streamable HTTP POST was refused the way only a legacy SSE server
 *   refuses it (no JSON-RPC error in the body — a 2026 server's -32022 is its real answer);
 * - `reprobe`: the cached era verdict was stale (the server answered the way a server of the other
 *   era does): drop it and negotiate afresh;
 * - `legacy`: a stdio server that exited on the `server/discover` probe (some 2025 servers end on
 *   any request before `initialize`): start it again and go straight to `initialize`.
 * SDK-free: the SDK's error classes come in as `sdk`.
 */
import { answersLikeSseOnly, type SdkErrors, type StartFailure } from './connection-errors.js';

export type RetryKind = 'sse' | 'reprobe' | 'legacy';

export interface RetryContext {
  /** The transport has a legacy SSE fallback (an `http` entry). */
  hasSseFallback: boolean;
  /** The failed attempt started from a cached verdict (no probe). */
  usedPrior: boolean;
  /** The server process exited (stdio). */
  exited: boolean;
  tried: ReadonlySet<RetryKind>;
}

export function nextTry(sdk: SdkErrors, failure: StartFailure, c: RetryContext): RetryKind | undefined {
  const { error } = failure;
  const { SdkError, SdkErrorCode, ProtocolError } = sdk;
  if (c.hasSseFallback && !c.tried.has('sse') && answersLikeSseOnly(sdk, error)) return 'sse';
  if (c.usedPrior && !c.tried.has('reprobe')) {
    const answered =
      error instanceof ProtocolError ||
      (error instanceof SdkError &&
        error.code !== SdkErrorCode.RequestTimeout &&
        error.code !== SdkErrorCode.ConnectionClosed &&
        !(error instanceof sdk.SdkHttpError && [401, 403].includes(error.status)));
    if (answered && !c.exited) return 'reprobe';
  }
  const probeEndedByExit =
    !c.usedPrior &&
    c.exited &&
    failure.stage === 'initialize' &&
    error instanceof SdkError &&
    error.code === SdkErrorCode.EraNegotiationFailed;
  if (probeEndedByExit && !c.tried.has('legacy')) return 'legacy';
  return undefined;
}

/** The note in the server's log before the next try. */
export function retryNote(kind: RetryKind, cause: string): string {
  switch (kind) {
    case 'sse':
      return `Streamable HTTP refused (${cause}); trying SSE`;
    case 'reprobe':
      return `the cached protocol verdict did not hold (${cause}); negotiating again`;
    case 'legacy':
      return `the server exited on server/discover (${cause}); starting it again with initialize`;
  }
}
