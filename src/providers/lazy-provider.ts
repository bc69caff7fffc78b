/**
 * The SDK-free half every provider shares: settings, key redaction, and the requester (the SDK
 * client and one streamed request, the folder's `request.ts` that its spec loads) built on the
 * first request or `prepare()` — never without a key, so the agent starts without one and a run on
 * another provider never loads this one's SDK.
 */
import { type ModelSettings, modelAcceptsMedia } from '../config/model-settings.js';
import { missingKeyMessage } from '../config/model-setup.js';
import type { ProviderKind } from '../config/provider-kinds.js';
import type { PromptCacheKeyMode } from './prompt-cache-key.js';
import type { PROVIDER_SPECS } from './specs.js';
import { type ChatProvider, type ChatRequest, type ChatRound, ModelNotConfiguredError } from './types.js';

export interface ProviderOptions {
  /** Hides secret values in error messages (a 401 body may echo the key). */
  redact?: (text: string) => string;
  /** Whether requests carry the session's `prompt_cache_key` (prompt-cache-key.ts); auto by default. */
  promptCacheKey?: PromptCacheKeyMode;
}

/** What a provider's `request.ts` is built from. */
export interface RequesterInit {
  settings: ModelSettings & { apiKey: string };
  model: string;
  acceptsMedia: boolean;
  redact: (text: string) => string;
  /** The run's `prompt_cache_key` choice (Chat Completions reads it). */
  promptCacheKey?: PromptCacheKeyMode;
}

export interface Requester {
  complete(request: ChatRequest): Promise<ChatRound>;
}

/** A spec whose loader gives a requester class: every spec in the list is one (checked here). */
type LoadingSpec = { kind: ProviderKind; load: () => Promise<new (init: RequesterInit) => Requester> };
type Spec = (typeof PROVIDER_SPECS)[number] & LoadingSpec;

/** Shorter keys would match ordinary words; the env redactor applies the same floor. */
const MIN_KEY_LENGTH = 4;

export class LazyProvider implements ChatProvider {
  readonly name: ProviderKind;
  readonly model: string;
  readonly contextWindow: number;
  readonly acceptsMedia: boolean;
  readonly #settings: ModelSettings;
  readonly #options: ProviderOptions;
  readonly #redact: (text: string) => string;
  readonly #spec: LoadingSpec;
  #requester: Promise<Requester> | undefined;

  constructor(spec: Spec, settings: ModelSettings, options: ProviderOptions = {}) {
    this.name = spec.kind;
    this.model = settings.model;
    this.contextWindow = settings.contextWindow;
    this.acceptsMedia = settings.acceptsMedia ?? modelAcceptsMedia(settings.model);
    this.#settings = settings;
    this.#options = options;
    this.#redact = keyRedactor(settings.apiKey, settings.keyVariable, options.redact ?? ((text) => text));
    this.#spec = spec;
  }

  async complete(request: ChatRequest): Promise<ChatRound> {
    const requester = this.#load();
    if (!requester) throw new ModelNotConfiguredError(missingKeyMessage(this.#settings.keyVariable));
    return (await requester).complete(request);
  }

  /** Starts loading the SDK side now (a face that knows a request is coming overlaps the load). */
  prepare(): void {
    this.#load()?.catch(() => undefined);
  }

  #load(): Promise<Requester> | undefined {
    const { apiKey } = this.#settings;
    if (!apiKey) return undefined;
    this.#requester ??= this.#spec.load().then(
      (Requester) =>
        new Requester({
          settings: { ...this.#settings, apiKey },
          model: this.model,
          acceptsMedia: this.acceptsMedia,
          redact: this.#redact,
          promptCacheKey: this.#options.promptCacheKey,
        }),
    );
    return this.#requester;
  }
}

/** The key by its own name first (it may not be in the environment at all), then the env secrets. */
export function keyRedactor(
  key: string | undefined,
  keyVariable: string,
  redact: (text: string) => string,
): (text: string) => string {
  if (key === undefined || key.length < MIN_KEY_LENGTH) return redact;
  return (text) => redact(text.replaceAll(key, `[REDACTED:${keyVariable}]`));
}
