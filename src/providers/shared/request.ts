/**
 * One model request's plumbing, the same for every provider: the SDK client's common options, a
 * child abort signal linked to the turn's (the SDKs leave their listener on the signal they are
 * given, and a turn's lives for up to 30 requests), the idle watch over the pooled HTTP transport
 * (RequestWatch: the request fails when no bytes arrive for the timeout), and the end of a
 * streamed round: cancel, idle timeout, a stream that stopped without its stop, failures mapped by
 * the provider and redacted here.
 */
import { DEFAULT_REQUEST_TIMEOUT_MS, type ModelSettings } from '../../config/model-settings.js';
import type { HttpTransport } from '../http-transport.js';
import { type EndpointWording, RequestWatch } from '../request-watch.js';
import type { ChatRequest, ChatRound } from '../types.js';
import { cancelledError, endedEarlyError, redactError } from './errors.js';

/** The SDK's own per-request timeout is replaced by our idle timer; this only keeps it out of the way. */
const SDK_TIMEOUT_MS = 2_147_483_647;

/** What the openai and Anthropic SDK clients are built with (their own headers aside). */
export function sdkClientOptions(settings: ModelSettings & { apiKey: string }) {
  return {
    baseURL: settings.baseURL,
    apiKey: settings.apiKey,
    maxRetries: settings.maxRetries,
    timeout: SDK_TIMEOUT_MS,
  };
}

/** A request's watch and its own abort signal; `close()` stops the watch and unlinks the signal. */
export interface WatchedRequest {
  watch: RequestWatch;
  /** Aborted by the turn's signal or by the idle timeout. */
  signal: AbortSignal;
  close(): void;
}

export function watchRequest(
  turnSignal: AbortSignal,
  settings: Pick<ModelSettings, 'baseURL' | 'requestTimeoutMs'>,
  transport: HttpTransport,
  page: EndpointWording,
): WatchedRequest {
  const requestAbort = new AbortController();
  const forward = () => requestAbort.abort(turnSignal.reason);
  turnSignal.addEventListener('abort', forward, { once: true });
  const watch = new RequestWatch(
    settings.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    settings.baseURL,
    () => requestAbort.abort(),
    transport,
    page,
  );
  watch.start();
  return {
    watch,
    signal: requestAbort.signal,
    close() {
      watch.stop();
      turnSignal.removeEventListener('abort', forward);
    },
  };
}

export interface StreamRoundInit {
  settings: Pick<ModelSettings, 'baseURL' | 'requestTimeoutMs'>;
  transport: HttpTransport;
  /** How a web page's answer names the endpoint. */
  page: EndpointWording;
  redact: (text: string) => string;
  /** The provider's failure mapping (cancel, HTTP status, the tool a 400 points at, …). */
  mapFailure: (error: unknown) => unknown;
}

/**
 * One streamed round: `send` makes the request with the watch's `fetch` and the request's signal
 * and reads the stream into a round (through `watch.paced`).
 */
export async function streamRound(
  request: ChatRequest,
  { settings, transport, page, redact, mapFailure }: StreamRoundInit,
  send: (watch: RequestWatch, signal: AbortSignal) => Promise<ChatRound>,
): Promise<ChatRound> {
  const { signal } = request;
  const watched = watchRequest(signal, settings, transport, page);
  let round: ChatRound;
  try {
    round = await send(watched.watch, watched.signal);
  } catch (error) {
    if (watched.watch.timedOut && !signal.aborted) throw redactError(watched.watch.timeoutError(), redact);
    throw redactError(mapFailure(error), redact);
  } finally {
    watched.close();
  }
  // The SDKs end the iteration quietly on abort, so a cancel can look like a short reply.
  if (signal.aborted) throw cancelledError();
  if (watched.watch.timedOut) throw redactError(watched.watch.timeoutError(), redact);
  if (round.stop === null) throw endedEarlyError();
  return round;
}
