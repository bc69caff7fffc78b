/**
 * The openai SDK side of the Chat Completions provider (loaded through its spec on the first
 * request): the client and one streamed request; the idle watch, abort link, redaction and the
 * round's end are the shared plumbing's (shared/request.ts), the failure mapping is stream.ts's.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { VERSION as SDK_VERSION } from 'openai/version';
import { PACKAGE_VERSION } from '../../config/version.js';
import { classifyOverflow } from '../context-overflow.js';
import { HttpTransport } from '../http-transport.js';
import type { RequesterInit } from '../lazy-provider.js';
import { sendsPromptCacheKey } from '../prompt-cache-key.js';
import { cancelledError, redactError } from '../shared/errors.js';
import { sdkClientOptions, streamRound } from '../shared/request.js';
import type { ChatRequest, ChatRound } from '../types.js';
import { toOpenAIMessages, toOpenAITools } from './messages.js';
import { OPENAI_CHAT } from './spec.js';
import { mapFailure, readRound } from './stream.js';

/**
 * Set here, not left to the SDK: it names itself by its class name, which the minified bundle
 * shortens. Servers see who calls them.
 */
const USER_AGENT = `GeekAgent/${PACKAGE_VERSION} OpenAI/JS ${SDK_VERSION}`;

export class OpenAIRequester {
  readonly model: string;
  readonly acceptsMedia: boolean;
  readonly #settings: RequesterInit['settings'];
  readonly #redact: (text: string) => string;
  /** Send the request's `cacheKey` as `prompt_cache_key` (the endpoint accepts it). */
  readonly #sendCacheKey: boolean;
  readonly #client: OpenAI;
  /** One connection pool for every request of this client. */
  readonly #transport = new HttpTransport();

  constructor({ settings, model, acceptsMedia, redact, promptCacheKey }: RequesterInit) {
    this.model = model;
    this.acceptsMedia = acceptsMedia;
    this.#settings = settings;
    this.#redact = redact;
    this.#sendCacheKey = sendsPromptCacheKey(settings.baseURL, promptCacheKey);
    this.#client = new OpenAI({
      ...sdkClientOptions(settings),
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
    const { baseURL, keyVariable } = this.#settings;
    return streamRound(
      request,
      {
        settings: this.#settings,
        transport: this.#transport,
        page: { variable: OPENAI_CHAT.env.baseURL, expected: 'a chat completion stream' },
        redact: this.#redact,
        // Redacted before the overflow check, which keeps the message it is given.
        mapFailure: (error) =>
          classifyOverflow(error, redactError(mapFailure(error, signal, baseURL, keyVariable), this.#redact)),
      },
      async (watch, requestSignal) => {
        // A client per request (cheap: connections are pooled by the transport) so its fetch
        // reports this request's bytes to this request's watch. Its responses are light ones
        // (web-types.ts) with the members the SDK reads, not full Responses.
        const client = this.#client.withOptions({ fetch: watch.fetch as unknown as typeof fetch });
        const stream = await client.chat.completions.create(params, { signal: requestSignal });
        return readRound(watch.paced(stream, request.pace), request.onText, request.onReasoning, signal);
      },
    );
  }
}
