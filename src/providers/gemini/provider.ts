/**
 * The Gemini provider (GEEKAGENT_PROVIDER=gemini) on Google's official @google/genai SDK. This
 * class is small and imports no SDK: `request.ts` (and with it the SDK, google-auth-library, ws)
 * is loaded on the first request, so a run on another provider never reads the Gemini bundle.
 */
import { type ModelSettings, missingKeyMessage, modelAcceptsMedia } from '../../config/model-settings.js';
import { keyRedactor, type ProviderOptions } from '../openai.js';
import { type ChatProvider, type ChatRequest, type ChatRound, ModelNotConfiguredError } from '../types.js';
import type { GeminiRequester } from './request.js';

export class GeminiProvider implements ChatProvider {
  readonly name = 'gemini';
  readonly model: string;
  readonly contextWindow: number;
  readonly acceptsMedia: boolean;
  readonly #settings: ModelSettings;
  readonly #redact: (text: string) => string;
  // Built on the first request, and only with a key: the agent must start without one.
  #requester: Promise<GeminiRequester> | undefined;

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

  #load(): Promise<GeminiRequester> | undefined {
    const { apiKey } = this.#settings;
    if (!apiKey) return undefined;
    this.#requester ??= import('./request.js').then(
      ({ GeminiRequester }) =>
        new GeminiRequester({
          settings: { ...this.#settings, apiKey },
          model: this.model,
          acceptsMedia: this.acceptsMedia,
          redact: this.#redact,
        }),
    );
    return this.#requester;
  }
}
