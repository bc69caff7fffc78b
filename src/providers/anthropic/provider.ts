/**
 * The Anthropic Messages provider (GEEKAGENT_PROVIDER=anthropic) on the official
 * @anthropic-ai/sdk. This module is SDK-free: the SDK and the client (`request.ts`) load on the
 * first request or `prepare()`, so a run on another provider never reads it.
 */
import { type ModelSettings, missingKeyMessage, modelAcceptsMedia } from '../../config/model-settings.js';
import { keyRedactor, type ProviderOptions } from '../openai.js';
import { type ChatProvider, type ChatRequest, type ChatRound, ModelNotConfiguredError } from '../types.js';
import type { AnthropicRequester } from './request.js';

export class AnthropicProvider implements ChatProvider {
  readonly name = 'anthropic';
  readonly model: string;
  readonly contextWindow: number;
  readonly acceptsMedia: boolean;
  readonly #settings: ModelSettings;
  readonly #redact: (text: string) => string;
  #requester: Promise<AnthropicRequester> | undefined;

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

  #load(): Promise<AnthropicRequester> | undefined {
    const { apiKey } = this.#settings;
    if (!apiKey) return undefined;
    this.#requester ??= import('./request.js').then(
      ({ AnthropicRequester }) =>
        new AnthropicRequester({
          settings: { ...this.#settings, apiKey },
          model: this.model,
          acceptsMedia: this.acceptsMedia,
          redact: this.#redact,
        }),
    );
    return this.#requester;
  }
}
