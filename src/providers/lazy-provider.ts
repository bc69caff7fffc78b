/**
 * The SDK-free half every provider shares: settings, key redaction, and the requester (the SDK
 * client and one streamed request) built on the first request or `prepare()` — never without a key,
 * so the agent starts without one and a run on another provider never loads this one's SDK.
 */
import { type ModelSettings, modelAcceptsMedia } from '../config/model-settings.js';
import { missingKeyMessage } from '../config/model-setup.js';
import type { ProviderKind } from '../config/provider-kinds.js';
import { keyRedactor, type ProviderOptions } from './openai.js';
import { type ChatProvider, type ChatRequest, type ChatRound, ModelNotConfiguredError } from './types.js';

/** What a provider's `request.ts` is built from. */
export interface RequesterInit {
  settings: ModelSettings & { apiKey: string };
  model: string;
  acceptsMedia: boolean;
  redact: (text: string) => string;
}

export interface Requester {
  complete(request: ChatRequest): Promise<ChatRound>;
}

export class LazyProvider implements ChatProvider {
  readonly model: string;
  readonly contextWindow: number;
  readonly acceptsMedia: boolean;
  readonly #settings: ModelSettings;
  readonly #redact: (text: string) => string;
  readonly #build: (init: RequesterInit) => Promise<Requester>;
  #requester: Promise<Requester> | undefined;

  constructor(
    readonly name: ProviderKind,
    settings: ModelSettings,
    options: ProviderOptions,
    /** Imports the provider's `request.ts` (a dynamic import: that is what keeps the SDK lazy). */
    build: (init: RequesterInit) => Promise<Requester>,
  ) {
    this.model = settings.model;
    this.contextWindow = settings.contextWindow;
    this.acceptsMedia = settings.acceptsMedia ?? modelAcceptsMedia(settings.model);
    this.#settings = settings;
    this.#redact = keyRedactor(settings.apiKey, settings.keyVariable, options.redact ?? ((text) => text));
    this.#build = build;
  }

  async complete(request: ChatRequest): Promise<ChatRound> {
    const requester = this.#load();
    if (!requester) throw new ModelNotConfiguredError(missingKeyMessage(this.#settings.keyVariable));
    return (await requester).complete(request);
  }

  prepare(): void {
    this.#load()?.catch(() => undefined);
  }

  #load(): Promise<Requester> | undefined {
    const { apiKey } = this.#settings;
    if (!apiKey) return undefined;
    this.#requester ??= this.#build({
      settings: { ...this.#settings, apiKey },
      model: this.model,
      acceptsMedia: this.acceptsMedia,
      redact: this.#redact,
    });
    return this.#requester;
  }
}
