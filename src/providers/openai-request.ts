/**
 * The openai SDK side of the provider (loaded by `openai.ts` on the first request): the client,
 * and one streamed request with its idle watch, abort link, failure mapping and redaction.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { VERSION as SDK_VERSION } from 'openai/version';
import { DEFAULT_REQUEST_TIMEOUT_MS, type ModelSettings } from '../config/model-settings.js';
import { PACKAGE_VERSION } from '../config/version.js';
import { classifyOverflow } from './context-overflow.js';
import { HttpTransport } from './http-transport.js';
import { toOpenAIMessages, toOpenAITools } from './openai-messages.js';
import { cancelledError, endedEarlyError, mapFailure, readRound } from './openai-stream.js';
import { RequestWatch } from './request-watch.js';
import { type ChatRequest, type ChatRound, ProviderError } from './types.js';

/**
 * Set here, not left to the SDK: it names itself by its class name, which the minified bundle
 * shortens. Servers see who calls them.
 */
const USER_AGENT = `GeekAgent/${PACKAGE_VERSION} OpenAI/JS ${SDK_VERSION}`;

/** The SDK's own per-request timeout is replaced by our idle timer; this only keeps it out of the way. */
const SDK_TIMEOUT_MS = 2_147_483_647;

export interface RequesterOptions {
  settings: ModelSettings & { apiKey: string };
  model: string;
  acceptsMedia: boolean;
  redact: (text: string) => string;
  /** Send the request's `cacheKey` as `prompt_cache_key` (the endpoint accepts it). */
  sendCacheKey?: boolean;
}

export class OpenAIRequester {
  readonly model: string;
  readonly acceptsMedia: boolean;
  readonly #baseURL: string;
  /** Named in a 401's message. */
  readonly #keyVariable: string;
  readonly #timeoutMs: number;
  readonly #redact: (text: string) => string;
  readonly #sendCacheKey: boolean;
  readonly #client: OpenAI;
  /** One connection pool for every request of this client. */
  readonly #transport = new HttpTransport();

  constructor({ settings, model, acceptsMedia, redact, sendCacheKey }: RequesterOptions) {
    this.model = model;
    this.acceptsMedia = acceptsMedia;
    this.#baseURL = settings.baseURL;
    this.#keyVariable = settings.keyVariable;
    this.#timeoutMs = settings.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#redact = redact;
    this.#sendCacheKey = sendCacheKey === true;
    this.#client = new OpenAI({
      baseURL: settings.baseURL,
      apiKey: settings.apiKey,
      maxRetries: settings.maxRetries,
      timeout: SDK_TIMEOUT_MS,
      defaultHeaders: { 'user-agent': USER_AGENT },
    });
  }

  async complete(request: ChatRequest): Promise<ChatRound> {
    const { signal } = request;
    if (signal.aborted) throw cancelledError();
    const params: ChatCompletionCreateParamsStreaming = {
      model: this.model,
      messages: toOpenAIMessages(request.messages, this.acceptsMedia),
      stream: true,
      stream_options: { include_usage: true },
    };
    // Some compatible servers reject an empty `tools` array outright.
    if (request.tools.length > 0) params.tools = toOpenAITools(request.tools);
    // Routes the session's requests to one prompt cache; only where the endpoint accepts the field.
    if (this.#sendCacheKey && request.cacheKey) params.prompt_cache_key = request.cacheKey;

    // The SDK leaves an abort listener on the signal it is given; a turn's signal lives for up to
    // 30 requests, so each request gets its own child signal whose link is removed afterwards.
    const requestAbort = new AbortController();
    const forward = () => requestAbort.abort(signal.reason);
    signal.addEventListener('abort', forward, { once: true });
    const watch = new RequestWatch(
      this.#timeoutMs,
      this.#baseURL,
      () => requestAbort.abort(),
      this.#transport,
    );
    // A client per request (cheap: connections are pooled by the transport) so its fetch reports
    // this request's bytes to this request's watch.
    // Its responses are light ones (web-types.ts) with the members the SDK reads, not full Responses.
    const client = this.#client.withOptions({ fetch: watch.fetch as unknown as typeof fetch });
    watch.start();
    let round: ChatRound;
    try {
      const stream = await client.chat.completions.create(params, { signal: requestAbort.signal });
      round = await readRound(watch.paced(stream, request.pace), request.onText, request.onReasoning, signal);
    } catch (error) {
      if (watch.timedOut && !signal.aborted) throw this.#redacted(watch.timeoutError());
      throw classifyOverflow(
        error,
        this.#redacted(mapFailure(error, signal, this.#baseURL, this.#keyVariable)),
      );
    } finally {
      watch.stop();
      signal.removeEventListener('abort', forward);
    }
    // The SDK ends the iteration quietly on abort, so a cancel can look like a short reply.
    if (signal.aborted) throw cancelledError();
    if (watch.timedOut) throw this.#redacted(watch.timeoutError());
    if (round.stop === null) throw endedEarlyError();
    return round;
  }

  #redacted(error: unknown): unknown {
    if (!(error instanceof ProviderError)) return error;
    const message = this.#redact(error.message);
    return message === error.message ? error : new ProviderError(message, error.status);
  }
}
