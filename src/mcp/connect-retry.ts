/**
 * What a connection tries next after one connect over one transport failed (connection.ts runs
 * the tries; each kind at most once per start):
 * - `sse`: an `http` entry whose Streamable HTTP POST was refused the way only a legacy SSE server
 *   refuses it (no JSON-RPC error in the body — a 2026 server's -32022 is its real answer);
 * - `reprobe`: the cached era verdict was stale (the server answered the way a server of the other
 *   era does): drop it and negotiate afresh;
 * - `legacy`: a stdio server that exited on the `server/discover` probe (some 2025 servers end on
 *   any request before `initialize`): start it again and go straight to `initialize`;
 * - `modern`: a stdio server that answered the probe only after it had given up (slow to start,
 *   probe-watch.ts): start it again as the 2026 server it is, its late answer as the `prior`.
 * SDK-free: the SDK's error classes come in as `sdk`.
 */
import { errorMessage } from '../util/errors.js';
import { answersLikeSseOnly, type SdkErrors, type StartFailure } from './connection-errors.js';
import { type EraVerdict, MODERN_VERSION, priorOf } from './era.js';
import { LateDiscoverError } from './probe-watch.js';
import type { OpenedTransport } from './transports.js';

export type RetryKind = 'sse' | 'reprobe' | 'legacy' | 'modern';

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
  if (error instanceof LateDiscoverError) return c.tried.has('modern') ? undefined : 'modern';
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
    case 'modern':
      return `${cause}; starting it again as a 2026-07-28 server`;
  }
}

/** What the retry loop needs from its connection. */
export interface RetryHooks {
  /** One connect over one transport, from a verdict (undefined: probe). */
  attempt(opened: OpenedTransport, verdict: EraVerdict | undefined): Promise<true | StartFailure>;
  /** A fresh transport for the same entry (a new process for stdio). */
  reopen(): Promise<OpenedTransport>;
  /** False once the connection was closed or a newer start began. */
  current(): boolean;
  /** A note for the server's log. */
  note(text: string): void;
}

/** The era the next try starts from (undefined: probe). */
function verdictFor(kind: RetryKind, error: unknown): EraVerdict | undefined {
  if (kind === 'reprobe') return undefined;
  if (kind === 'modern' && error instanceof LateDiscoverError)
    return { kind: 'modern', version: MODERN_VERSION, discover: error.discover };
  // A server only reachable over legacy SSE, or one that exits on the probe, is a 2025 one.
  return { kind: 'legacy', checkedAt: Date.now() };
}

/** The first attempt, then each retry `nextTry` allows; the last outcome and its transport. */
export async function connectWithRetries(
  sdk: SdkErrors,
  first: OpenedTransport,
  verdict: EraVerdict | undefined,
  hooks: RetryHooks,
): Promise<{ outcome: true | StartFailure; opened: OpenedTransport }> {
  let opened = first;
  let used = verdict;
  let outcome = await hooks.attempt(opened, used);
  const tried = new Set<RetryKind>();
  while (outcome !== true && hooks.current()) {
    const next = nextTry(sdk, outcome, {
      hasSseFallback: opened.fallback !== undefined,
      usedPrior: priorOf(used, Date.now()) !== undefined,
      exited: opened.exitReason() !== undefined,
      tried,
    });
    if (!next) break;
    tried.add(next);
    hooks.note(retryNote(next, errorMessage(outcome.error)));
    used = verdictFor(next, outcome.error);
    try {
      opened = next === 'sse' && opened.fallback ? opened.fallback() : await hooks.reopen();
    } catch (error) {
      return { outcome: { error, stage: 'initialize', exitedFirst: false }, opened };
    }
    outcome = await hooks.attempt(opened, used);
  }
  return { outcome, opened };
}
