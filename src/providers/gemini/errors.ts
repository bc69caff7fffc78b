/**
 * What a failed Gemini request surfaces as: an AbortError for a cancel, a ContextOverflowError
 * for "the input token count exceeds the maximum", otherwise a ProviderError with Google's own
 * message, naming the key variable for a key problem, GOOGLE_GEMINI_BASE_URL for a web page, and
 * the MCP server and tool for an error about a function declaration. Also which failures are
 * retried and after how long (Retry-After, Google's RetryInfo, else exponential backoff).
 */
import { CallbackFailure, cancelledError, rootMessage, streamFailure } from '../shared/errors.js';
import { ContextOverflowError, ProviderError, type ProviderTool } from '../types.js';
import { GEMINI } from './spec.js';
import { toolLabel } from './tools.js';

/** Google's error body: `{error: {code, message, status, details}}`. */
interface GoogleError {
  code?: number;
  message?: string;
  status?: string;
  details?: Array<Record<string, unknown>>;
}

export interface FailureContext {
  signal: AbortSignal;
  baseURL: string;
  keyVariable: string;
  /** The tools sent, by declaration index. */
  sent: readonly ProviderTool[];
}

const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
const OVERFLOW_WORDS =
  /input token count.*exceeds the maximum|exceeds the maximum number of tokens|context window|too many tokens|prompt is too long/i;
const DECLARATION = /function_declarations\[(\d+)\]/;

/** The HTTP status of an SDK ApiError (or of an error chunk inside the stream), if any. */
export function statusOf(error: unknown): number | undefined {
  if (!(error instanceof Error) || error.name !== 'ApiError') return undefined;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

export function isRetryable(error: unknown): boolean {
  const status = statusOf(error);
  return status !== undefined && RETRY_STATUSES.has(status);
}

/**
 * How long to wait before attempt `attempt + 1`: the server's Retry-After (seconds) or RetryInfo
 * (`"17s"`) when it gives one within a minute, else 0.5 s doubling to 8 s, with jitter.
 */
export function retryDelayMs(error: unknown, retryAfter: string | null, attempt: number): number {
  const fromHeader = retryAfter !== null ? Number(retryAfter) * 1000 : Number.NaN;
  const info = googleError(error)?.details?.find((detail) => String(detail['@type']).endsWith('RetryInfo'));
  const fromInfo =
    typeof info?.retryDelay === 'string' ? Number.parseFloat(info.retryDelay) * 1000 : Number.NaN;
  for (const told of [fromHeader, fromInfo]) {
    if (Number.isFinite(told) && told >= 0 && told <= 60_000) return told;
  }
  const base = Math.min(500 * 2 ** attempt, 8_000);
  return base * (0.75 + Math.random() * 0.25);
}

export function mapGeminiFailure(error: unknown, context: FailureContext): unknown {
  if (error instanceof CallbackFailure) return error.error;
  if (context.signal.aborted || (error instanceof Error && error.name === 'AbortError'))
    return cancelledError();
  if (error instanceof ProviderError) return error;
  const status = statusOf(error);
  if (status !== undefined) {
    const body = googleError(error);
    const text = body?.message ?? (error as Error).message;
    if (text.trimStart().startsWith('<')) {
      return new ProviderError(
        `model request failed: HTTP ${status}: the server answered with an HTML page, not the API — check ${GEMINI.env.baseURL} (${context.baseURL})`,
        status,
      );
    }
    const message = `model request failed: HTTP ${status}${body?.status ? ` ${body.status}` : ''}: ${text}`;
    if (isKeyProblem(status, body, text)) {
      return new ProviderError(
        `${message} — check ${context.keyVariable} (the Gemini API key, sent as the x-goog-api-key header)`,
        status,
      );
    }
    if ((status === 400 || status === 413) && OVERFLOW_WORDS.test(text)) {
      return new ContextOverflowError(message, status);
    }
    const declaration = DECLARATION.exec(text);
    const tool = declaration ? context.sent[Number(declaration[1])] : undefined;
    if (tool)
      return new ProviderError(`${message} (Gemini refused the schema of ${toolLabel(tool)})`, status);
    return new ProviderError(message, status);
  }
  if (error instanceof TypeError && error.message === 'fetch failed') {
    return new ProviderError(`model request failed: cannot reach ${context.baseURL}: ${rootMessage(error)}`);
  }
  // The SDK's own words for a chunk it could not parse.
  return streamFailure(
    error,
    error instanceof Error && /parsing stream chunk|Incomplete JSON/.test(error.message),
  );
}

function isKeyProblem(status: number, body: GoogleError | undefined, text: string): boolean {
  if (status === 401 || status === 403) return true;
  if (status !== 400) return false;
  const reasons = (body?.details ?? []).map((detail) => String(detail.reason ?? ''));
  return reasons.some((reason) => reason.startsWith('API_KEY')) || /api key/i.test(text);
}

/**
 * Google's error object from the SDK's ApiError, whose message is the body as JSON (after
 * `got status: X. ` when it came inside the stream).
 */
function googleError(error: unknown): GoogleError | undefined {
  if (!(error instanceof Error)) return undefined;
  const start = error.message.indexOf('{');
  if (start < 0) return undefined;
  try {
    const parsed = JSON.parse(error.message.slice(start)) as { error?: unknown };
    return typeof parsed.error === 'object' && parsed.error !== null
      ? (parsed.error as GoogleError)
      : undefined;
  } catch {
    return undefined;
  }
}
