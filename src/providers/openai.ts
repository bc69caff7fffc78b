/**
 * The OpenAI-compatible Chat Completions provider (OpenAI, DeepSeek, Qwen, Ollama, vLLM, …) over
 * the official SDK: one streamed request per model round, ended when no bytes arrive for the idle
 * timeout, with secrets (the key included) redacted from every error it reports.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import {
  DEFAULT_REQUEST_TIMEOUT_MS,
  MISSING_KEY_MESSAGE,
  type ModelSettings,
  modelAcceptsMedia,
} from '../config/model-settings.js';
import { classifyOverflow } from './context-overflow.js';
import { toOpenAIMessages, toOpenAITools } from './openai-messages.js';
import { cancelledError, endedEarlyError, mapFailure, readRound } from './openai-stream.js';
import { RequestWatch } from './request-watch.js';
import {
  type ChatProvider,
  type ChatRequest,
  type ChatRound,
  ModelNotConfiguredError,
  ProviderError,
} from './types.js';

export interface ProviderOptions {
  /** Hides secret values in error messages (a 401 body may echo the key). */
  redact?: (text: string) => string;
}

/** The SDK's own per-request timeout is replaced by our idle timer; this only keeps it out of the way. */
const SDK_TIMEOUT_MS = 2_147_483_647;
/** Shorter keys would match ordinary words; the env redactor applies the same floor. */
const MIN_KEY_LENGTH = 4;

export class OpenAIChatProvider implements ChatProvider {
  readonly name = 'openai';
  readonly model: string;
  readonly contextWindow: number;
  readonly acceptsMedia: boolean;
  readonly #baseURL: string;
  readonly #timeoutMs: number;
  readonly #redact: (text: string) => string;
  // Undefined without a key: the SDK refuses to construct then, and the agent must still start.
  readonly #client: OpenAI | undefined;

  constructor(settings: ModelSettings, options: ProviderOptions = {}) {
    this.model = settings.model;
    this.contextWindow = settings.contextWindow;
    this.acceptsMedia = settings.acceptsMedia ?? modelAcceptsMedia(settings.model);
    this.#baseURL = settings.baseURL;
    this.#timeoutMs = settings.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#redact = keyRedactor(settings.apiKey, options.redact ?? ((text) => text));
    this.#client = settings.apiKey
      ? new OpenAI({
          baseURL: settings.baseURL,
          apiKey: settings.apiKey,
          maxRetries: settings.maxRetries,
          timeout: SDK_TIMEOUT_MS,
        })
      : undefined;
  }

  async complete(request: ChatRequest): Promise<ChatRound> {
    if (!this.#client) throw new ModelNotConfiguredError(MISSING_KEY_MESSAGE);
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

    // The SDK leaves an abort listener on the signal it is given; a turn's signal lives for up to
    // 30 requests, so each request gets its own child signal whose link is removed afterwards.
    const requestAbort = new AbortController();
    const forward = () => requestAbort.abort(signal.reason);
    signal.addEventListener('abort', forward, { once: true });
    const watch = new RequestWatch(this.#timeoutMs, this.#baseURL, () => requestAbort.abort());
    // A client per request (cheap: connections are pooled by the runtime) so its fetch reports
    // this request's bytes to this request's watch.
    const client = this.#client.withOptions({ fetch: watch.fetch });
    watch.start();
    let round: ChatRound;
    try {
      const stream = await client.chat.completions.create(params, { signal: requestAbort.signal });
      round = await readRound(stream, request.onText, request.onReasoning, signal);
    } catch (error) {
      if (watch.timedOut && !signal.aborted) throw this.#redacted(watch.timeoutError());
      throw classifyOverflow(error, this.#redacted(mapFailure(error, signal, this.#baseURL)));
    } finally {
      watch.stop();
      signal.removeEventListener('abort', forward);
    }
    // The SDK ends the iteration quietly on abort, so a cancel can look like a short reply.
    if (signal.aborted) throw cancelledError();
    if (watch.timedOut) throw this.#redacted(watch.timeoutError());
    if (round.finishReason === null) throw endedEarlyError();
    return round;
  }

  #redacted(error: unknown): unknown {
    if (!(error instanceof ProviderError)) return error;
    const message = this.#redact(error.message);
    return message === error.message ? error : new ProviderError(message, error.status);
  }
}

/** The key by its own name first (it may not be in the environment at all), then the env secrets. */
function keyRedactor(key: string | undefined, redact: (text: string) => string): (text: string) => string {
  if (key === undefined || key.length < MIN_KEY_LENGTH) return redact;
  return (text) => redact(text.replaceAll(key, '[REDACTED:OPENAI_API_KEY]'));
}
