/**
 * The OpenAI-compatible Chat Completions provider (OpenAI, DeepSeek, Qwen, Ollama, vLLM, …) over
 * the official SDK: one streamed request per model round, ended when no bytes arrive for the idle
 * timeout, with secrets (the key included) redacted from every error it reports. The SDK itself
 * (`openai-request.ts`) is loaded and its client built on the first request: constructing the
 * provider costs nothing, so a face draws before the model client exists.
 */
import { type ModelSettings, modelAcceptsMedia } from '../config/model-settings.js';
import { missingKeyMessage } from '../config/model-setup.js';
import type { OpenAIRequester } from './openai-request.js';
import { type PromptCacheKeyMode, sendsPromptCacheKey } from './prompt-cache-key.js';
import { type ChatProvider, type ChatRequest, type ChatRound, ModelNotConfiguredError } from './types.js';

export interface ProviderOptions {
  /** Hides secret values in error messages (a 401 body may echo the key). */
  redact?: (text: string) => string;
  /** Whether requests carry the session's `prompt_cache_key` (prompt-cache-key.ts); auto by default. */
  promptCacheKey?: PromptCacheKeyMode;
}

/**
 * Starts loading the SDK side now, without waiting: a face that knows a request is coming (print
 * mode; the TUI once its first frame is drawn) overlaps the load with its own start-up I/O. The
 * first `complete` then finds the module loaded (dynamic imports are cached).
 */
export function preloadOpenAI(): void {
  import('./openai-request.js').catch(() => undefined);
}

/** Shorter keys would match ordinary words; the env redactor applies the same floor. */
const MIN_KEY_LENGTH = 4;

export class OpenAIChatProvider implements ChatProvider {
  readonly name = 'openai';
  readonly model: string;
  readonly contextWindow: number;
  readonly acceptsMedia: boolean;
  readonly #settings: ModelSettings;
  readonly #redact: (text: string) => string;
  readonly #sendCacheKey: boolean;
  // Built on the first request; never without a key (the SDK refuses to construct then, and the
  // agent must still start).
  #requester: Promise<OpenAIRequester> | undefined;

  constructor(settings: ModelSettings, options: ProviderOptions = {}) {
    this.model = settings.model;
    this.contextWindow = settings.contextWindow;
    this.acceptsMedia = settings.acceptsMedia ?? modelAcceptsMedia(settings.model);
    this.#settings = settings;
    this.#redact = keyRedactor(settings.apiKey, settings.keyVariable, options.redact ?? ((text) => text));
    this.#sendCacheKey = sendsPromptCacheKey(settings.baseURL, options.promptCacheKey);
  }

  async complete(request: ChatRequest): Promise<ChatRound> {
    const requester = this.#load();
    if (!requester) throw new ModelNotConfiguredError(missingKeyMessage(this.#settings.keyVariable));
    return (await requester).complete(request);
  }

  prepare(): void {
    if (!this.#settings.apiKey) return;
    preloadOpenAI();
    this.#load()?.catch(() => undefined);
  }

  #load(): Promise<OpenAIRequester> | undefined {
    const { apiKey } = this.#settings;
    if (!apiKey) return undefined;
    this.#requester ??= import('./openai-request.js').then(
      ({ OpenAIRequester }) =>
        new OpenAIRequester({
          settings: { ...this.#settings, apiKey },
          model: this.model,
          acceptsMedia: this.acceptsMedia,
          redact: this.#redact,
          sendCacheKey: this.#sendCacheKey,
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
