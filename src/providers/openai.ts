/**
 * The OpenAI-compatible Chat Completions provider (OpenAI, DeepSeek, Qwen, Ollama, vLLM, …) over
 * the official SDK: one streamed request per model round.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { MISSING_KEY_MESSAGE, type ModelSettings, modelAcceptsMedia } from '../config/model-settings.js';
import { classifyOverflow } from './context-overflow.js';
import { toOpenAIMessages, toOpenAITools } from './openai-messages.js';
import { cancelledError, endedEarlyError, mapFailure, readRound } from './openai-stream.js';
import { type ChatProvider, type ChatRequest, type ChatRound, ModelNotConfiguredError } from './types.js';

export class OpenAIChatProvider implements ChatProvider {
  readonly name = 'openai';
  readonly model: string;
  readonly contextWindow: number;
  readonly acceptsMedia: boolean;
  readonly #baseURL: string;
  // Undefined without a key: the SDK refuses to construct then, and the agent must still start.
  readonly #client: OpenAI | undefined;

  constructor(settings: ModelSettings) {
    this.model = settings.model;
    this.contextWindow = settings.contextWindow;
    this.acceptsMedia = settings.acceptsMedia ?? modelAcceptsMedia(settings.model);
    this.#baseURL = settings.baseURL;
    this.#client = settings.apiKey
      ? new OpenAI({ baseURL: settings.baseURL, apiKey: settings.apiKey, maxRetries: settings.maxRetries })
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
    let round: ChatRound;
    try {
      const stream = await this.#client.chat.completions.create(params, { signal: requestAbort.signal });
      round = await readRound(stream, request.onText);
    } catch (error) {
      throw classifyOverflow(error, mapFailure(error, signal, this.#baseURL));
    } finally {
      signal.removeEventListener('abort', forward);
    }
    // The SDK ends the iteration quietly on abort, so a cancel can look like a short reply.
    if (signal.aborted) throw cancelledError();
    if (round.finishReason === null) throw endedEarlyError();
    return round;
  }
}
