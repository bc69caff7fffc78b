/**
 * What a connection says when something goes wrong — messages that name the server, the tool,
 * the reason and the fix — and the small classifiers behind them (by error class and code, never
 * by searching message text). The SDK's error classes come in as `sdk` (the lazily loaded
 * `connection-sdk.ts`): this module loads no SDK, so an idle server's connection needs none.
 */
import type { UnauthorizedError } from '@modelcontextprotocol/client';
import { errorMessage } from '../util/errors.js';
import type { Redactor } from '../util/redact.js';
import type { McpServerDefinition } from './config.js';
import { MODERN_VERSION, noSharedVersionMessage } from './era.js';
import { inputRoundFailure } from './input-rounds.js';
import type { SdkErrors } from './sdk-errors.js';
import type { ServerLog } from './server-log.js';
import type { ServerState } from './status.js';

/** The SDK error classes the classifiers test against (from `connection-sdk.ts`). */
export type { SdkErrors } from './sdk-errors.js';

/** JSON-RPC -32022: the server speaks none of the protocol versions we asked with. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** Prefix of the agent's own notes in a server's log, told apart from the server's stderr. */
export const OWN_NOTE = '[geekagent]';

export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** Why a request cannot go out now; a failed server's message points at its log when it has one. */
export function unavailableMessage(
  server: string,
  state: ServerState,
  file: string,
  logHint?: string,
): string {
  const message = unavailableReason(server, state, file);
  return logHint && state.state === 'failed' ? `${message} (its log: ${logHint})` : message;
}

function unavailableReason(server: string, state: ServerState, file: string): string {
  const prefix = `MCP server ${server} is not connected`;
  switch (state.state) {
    case 'failed':
      return state.retry
        ? `${prefix}: ${state.error}; restarting (attempt ${state.retry.attempt} of ${state.retry.maxAttempts}), try again shortly`
        : `${prefix}: ${state.error}`;
    case 'connecting':
      return `${prefix} yet: it is ${state.attempt > 1 ? 'restarting' : 'starting'}, try again shortly`;
    case 'disabled':
      return `${prefix}: it is disabled in ${file}`;
    case 'needs_auth':
      return `${prefix}: ${state.error}`;
    case 'idle':
      return `${prefix} yet: it starts on first use`;
    case 'connected':
      return prefix;
  }
}

/** A request that waited for a start or restart as long as its timeout allows, and was not sent. */
export function restartTimeoutMessage(
  server: string,
  request: string,
  state: ServerState,
  timeoutMs: number,
  file: string,
): string {
  const how =
    state.state === 'failed' && state.retry
      ? `it is restarting after: ${state.error} (attempt ${state.retry.attempt} of ${state.retry.maxAttempts})`
      : `it is still ${state.state === 'connecting' && state.attempt > 1 ? 'restarting' : 'starting'}`;
  return `MCP server ${server} did not come back within ${seconds(timeoutMs)}, the timeout of ${request}, which was not sent: ${how} (raise "timeout" for ${server} in ${file} if it needs longer)`;
}

export interface CallContext {
  server: string;
  /** The request as the person reads it: `tools/call "echo"`, `prompts/get "review"`. */
  request: string;
  timeoutMs: number;
  file: string;
  exitReason: string | undefined;
  state: ServerState;
}

export function callErrorMessage(sdk: SdkErrors, error: unknown, c: CallContext): string {
  const { SdkError, SdkErrorCode } = sdk;
  const call = c.request;
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    // Progress kept restarting the timeout until the cap on a whole call (sdk-call.ts).
    const cap = (error.data as { maxTotalTimeout?: unknown } | undefined)?.maxTotalTimeout;
    if (typeof cap === 'number')
      return `MCP server ${c.server} was still working on ${call} after ${seconds(cap)}, the most any call may take even with progress; the request was cancelled`;
    return `MCP server ${c.server} did not answer ${call} within ${seconds(c.timeoutMs)}; the request was cancelled (raise "timeout" for ${c.server} in ${c.file} if it needs longer)`;
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
    const reason = c.exitReason ?? (c.state.state === 'failed' ? c.state.error : undefined);
    return `MCP server ${c.server} went away during ${call}: ${reason ?? 'connection closed'}`;
  }
  const unusable = unusableResultType(sdk, error);
  if (unusable !== undefined)
    return `MCP server ${c.server} answered ${call} with a result of type ${unusable}, which GeekAgent cannot use (only complete results, and input requests it answers); nothing was taken from it`;
  const rounds = inputRoundFailure(sdk, error, c.server, call, c.file);
  if (rounds) return rounds;
  if (c.state.state === 'failed') return `MCP server ${c.server} went away during ${call}: ${c.state.error}`;
  return `MCP server ${c.server} returned an error for ${call}: ${errorMessage(error)}`;
}

/** How one connect over one transport failed (connection.ts `attempt`). */
export interface StartFailure {
  error: unknown;
  /** `initialize` until the server answered it, then `listing` (tools/list). */
  stage: 'initialize' | 'listing';
  /** The server had exited before we closed the connection (else any exit is our close's doing). */
  exitedFirst: boolean;
}

export function startupFailureReason(
  sdk: SdkErrors,
  failure: StartFailure,
  c: {
    definition: McpServerDefinition;
    exitReason: string | undefined;
    target: string;
    lastStderr: string | undefined;
    /** The connection's (mcp/redact.ts): what is cut here is redacted first, or a cut secret's prefix stays. */
    redact?: Redactor;
  },
): string {
  // A server that answers initialize or tools/list with an error and then exits: the answer says
  // why ("fetch failed"); the exit that follows ("code 0") does not.
  const { error } = failure;
  const theirs = refusedVersions(sdk, error);
  if (theirs) return noSharedVersionMessage(c.definition.name, theirs, ourVersions(sdk));
  const unusable = unusableResultType(sdk, error);
  if (unusable !== undefined) {
    const method = failure.stage === 'initialize' ? 'server/discover' : 'tools/list';
    return `the server answered ${method} with a result of type ${unusable}, which GeekAgent cannot use (a 2026-07-28 result is "complete" or "input_required")`;
  }
  // Said before the exit that follows our close (a 2026 list result without its ttlMs, say).
  if (error instanceof sdk.SdkError && error.code === sdk.SdkErrorCode.InvalidResult)
    return `the server answered start-up with an invalid result: ${head(errorMessage(error).replace(/\s+/g, ' '), 300, c.redact)}`;
  if (answeredWithError(sdk, error)) {
    const then = c.exitReason ? ` (then ${c.exitReason})` : '';
    return `the server answered start-up with an error: ${errorMessage(error)}${then}`;
  }
  // Timed out while the server was still running: the exit that follows is our close's (a proxy
  // that never answers exits 0 when its stdin ends), so the timeout is the reason.
  if (isTimeout(sdk, error) && !failure.exitedFirst) {
    const { name, file, startupTimeoutMs, timeoutMs } = c.definition;
    const [method, ms, setting] =
      failure.stage === 'initialize'
        ? ['initialize', startupTimeoutMs, 'startupTimeout']
        : ['tools/list', timeoutMs, 'timeout'];
    const reason = `did not answer ${method} within ${seconds(ms)} (raise "${setting}" for ${name} in ${file} if it needs longer)`;
    return c.lastStderr
      ? `${reason}; the server's last stderr line: "${c.lastStderr.slice(0, 300)}"`
      : reason;
  }
  if (c.exitReason) return withLine(`${c.exitReason} during start-up`, c.lastStderr);
  if (isNetworkFailure(error)) return `cannot reach ${c.target}: ${networkCause(error)}`;
  return errorMessage(error);
}

/**
 * A result neither `complete` nor `input_required` (the SDK reads `resultType` on every result and
 * answers input requests itself): the server's word for its kind, quoted and escaped, else undefined.
 */
function unusableResultType({ SdkError, SdkErrorCode }: SdkErrors, error: unknown): string | undefined {
  if (!(error instanceof SdkError) || error.code !== SdkErrorCode.UnsupportedResultType) return undefined;
  const kind = (error.data as { resultType?: unknown } | undefined)?.resultType;
  return JSON.stringify(String(kind).slice(0, 80));
}

/** The protocol versions this client speaks: 2026-07-28, then the 2025 era's. */
export function ourVersions(sdk: SdkErrors): string[] {
  return [MODERN_VERSION, ...sdk.SUPPORTED_PROTOCOL_VERSIONS];
}

/**
 * The versions a server said it speaks when it refused ours (-32022): from the SDK's typed error,
 * an in-band error, or the JSON-RPC body of an HTTP 400. Undefined for any other failure.
 */
export function refusedVersions(sdk: SdkErrors, error: unknown): string[] | undefined {
  if (error instanceof sdk.UnsupportedProtocolVersionError) return error.supported;
  let rpc: { code: number; data?: unknown } | undefined;
  if (error instanceof sdk.ProtocolError) rpc = error;
  else if (error instanceof sdk.SdkHttpError && error.status === 400) {
    const body = error.data.text;
    rpc = jsonRpcErrorIn(typeof body === 'string' ? body : undefined);
  }
  if (rpc?.code !== UNSUPPORTED_PROTOCOL_VERSION) return undefined;
  const supported = (rpc.data as { supported?: unknown } | undefined)?.supported;
  return Array.isArray(supported) && supported.every((v) => typeof v === 'string') ? supported : undefined;
}

/** The SDK's request timeout, or our start-up deadline around connect. */
function isTimeout({ SdkError, SdkErrorCode }: SdkErrors, error: unknown): boolean {
  return (
    error instanceof DeadlineError ||
    (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)
  );
}

/** An error the server itself sent back (not a closed connection or our own timeout). */
function answeredWithError({ ProtocolError }: SdkErrors, error: unknown): boolean {
  return error instanceof ProtocolError;
}

/** The server's last stderr line usually says why it died (a missing module, a bad flag). */
export function lastServerLine(log: ServerLog): string | undefined {
  return log
    .tail(20)
    .filter((line) => !line.startsWith(OWN_NOTE))
    .at(-1)
    ?.trim();
}

function head(text: string, end: number, redact: Redactor | undefined): string {
  return redact ? redact.head(text, end) : text.slice(0, end);
}

export function withLine(reason: string, line: string | undefined): string {
  return line ? `${reason}: ${line.slice(0, 300)}` : reason;
}

/**
 * Streamable HTTP POST refused with 400/404/405 and no JSON-RPC error in the body: what a legacy
 * SSE-only server answers. A body that is a JSON-RPC error (a 2026 server's -32022 listing the
 * versions it speaks) is the server's real answer, never a reason to try SSE.
 */
export function answersLikeSseOnly({ SdkHttpError }: SdkErrors, error: unknown): boolean {
  if (!(error instanceof SdkHttpError) || ![400, 404, 405].includes(error.status)) return false;
  const body = error.data.text;
  return jsonRpcErrorIn(typeof body === 'string' ? body : undefined) === undefined;
}

/** The JSON-RPC error a response body carries, if it is one. */
export function jsonRpcErrorIn(
  body: string | undefined,
): { code: number; message: string; data?: unknown } | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown; data?: unknown } };
    const error = parsed?.error;
    if (typeof error?.code !== 'number') return undefined;
    return {
      code: error.code,
      message: typeof error.message === 'string' ? error.message : '',
      data: error.data,
    };
  } catch {
    return undefined;
  }
}

export function loginHint({ NeedsLoginError }: SdkErrors, server: string, error: UnauthorizedError): string {
  return error instanceof NeedsLoginError
    ? `run geekagent mcp login ${server}`
    : `${error.message} (run geekagent mcp login ${server})`;
}

/** fetch() rejects with a TypeError whose cause carries the socket error code. */
export function isNetworkFailure(error: unknown): boolean {
  return (
    error instanceof TypeError && typeof (error.cause as { code?: unknown } | undefined)?.code === 'string'
  );
}

export function networkCause(error: unknown): string {
  return String((error as { cause?: { code?: string } }).cause?.code ?? 'network error');
}

/** Our own deadline passed (told apart by class, not by its text). */
export class DeadlineError extends Error {
  override readonly name = 'DeadlineError';
}

/** Rejects with a DeadlineError when the deadline passes first; the caller closes what was being waited on. */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`no answer within ${seconds(ms)}`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
