/**
 * The failures every provider reports the same way: a cancel (an AbortError), a stream that ended
 * before its reply did, the innermost cause of a network error, and an error's message redacted
 * without losing its kind (a ContextOverflowError stays one: the agent compacts on it).
 */
import { ProviderError } from '../types.js';

export function cancelledError(): Error {
  const error = new Error('cancelled');
  error.name = 'AbortError';
  return error;
}

export function endedEarlyError(): ProviderError {
  return new ProviderError(
    'model request failed: the stream ended early (the connection closed before the reply finished)',
  );
}

/** The innermost cause's message: `fetch failed` says less than `connect ECONNREFUSED …`. */
export function rootMessage(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 8; depth++) {
    const cause = current instanceof Error ? current.cause : undefined;
    if (!(cause instanceof Error)) break;
    current = cause;
  }
  return current instanceof Error ? current.message : String(current);
}

/**
 * The last word of every provider's failure mapping: data the stream could not parse (a
 * SyntaxError, or what the caller knows as its SDK's parse failure: `malformed`), else a stream
 * that stopped, named by its root cause.
 */
export function streamFailure(error: unknown, malformed = false): ProviderError {
  if (malformed || error instanceof SyntaxError) {
    const message = error instanceof Error ? error.message : String(error);
    return new ProviderError(`model request failed: the server sent malformed stream data: ${message}`);
  }
  return new ProviderError(`model request failed: the stream ended early: ${rootMessage(error)}`);
}

/** `error` with its message redacted; the same object when nothing was hidden. */
export function redactError(error: unknown, redact: (text: string) => string): unknown {
  if (!(error instanceof ProviderError)) return error;
  const message = redact(error.message);
  return message === error.message ? error : withMessage(error, message);
}

/** A copy with a new message, of the same kind (ProviderError's subclasses keep its constructor). */
export function withMessage(error: ProviderError, message: string): ProviderError {
  const Kind = error.constructor as new (message: string, status?: number) => ProviderError;
  return new Kind(message, error.status);
}

/** Thrown by our own callbacks; kept apart so it is not mistaken for a stream failure. */
export class CallbackFailure {
  constructor(readonly error: unknown) {}
}

/** Runs a delta callback; what it throws is ours, not the stream's. */
export function deliver(callback: ((delta: string) => void) | undefined, delta: string): void {
  if (!callback) return;
  try {
    callback(delta);
  } catch (error) {
    throw new CallbackFailure(error);
  }
}
