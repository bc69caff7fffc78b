/**
 * The OpenAI Responses API provider (GEEKAGENT_PROVIDER=openai-responses; OPENAI_* variables), for
 * the models OpenAI serves on that API (gpt-5 and its reasoning kin). Like the Chat Completions
 * provider this class is SDK-free: `request.ts` (the openai client, already its own lazy bundle)
 * is imported on the first request or on `prepare()`, so constructing it costs nothing.
 */
import { type ModelSettings, missingKeyMessage, modelAcceptsMedia } from '../../config/model-settings.js';
import { keyRedactor, type ProviderOptions } from '../openai.js';
import { type ChatProvider, type ChatRequest, type ChatRound, ModelNotConfiguredError } from '../types.js';
import type { ResponsesRequester } from './request.js';

export class ResponsesProvider implements ChatProvider {
  readonly name = 'openai-responses';
  readonly model: string;
  readonly contextWindow: number;
  readonly acceptsMedia: boolean;
  readonly #settings: ModelSettings;
  readonly #redact: (text: string) => string;
  // Built on the first request, and only with a key (the agent must start without one).
  #requester: Promise<ResponsesRequester> | undefined;

  constructor(settings: ModelSettings, options: ProviderOptions = {}) {
    this.model = settings.model;
    this.contextWindow = settings.contextWindow;
    this.acceptsMedia = settings.acceptsMedia ?? modelAcceptsMedia(settings.model);
    this.#settings = settings;
    this.#redact = keyRedactor(settings.apiKey, settings.keyVariable, options.redact ?? ((text) => text));
  }

  async complete(request: ChatRequest): Promise<ChatRound> {
    const requester = this.#load();
    if (!requester) throw new ModelNotConfiguredError(missingKeyMessage(this.#settings.keyVariable));
    return (await requester).complete(request);
  }

  prepare(): void {
    this.#load()?.catch(() => undefined);
  }

  #load(): Promise<ResponsesRequester> | undefined {
    const { apiKey } = this.#settings;
    if (!apiKey) return undefined;
    this.#requester ??= import('./request.js').then(
      ({ ResponsesRequester }) =>
        new ResponsesRequester({
          settings: { ...this.#settings, apiKey },
          model: this.model,
          acceptsMedia: this.acceptsMedia,
          redact: this.#redact,
        }),
    );
    return this.#requester;
  }
}
