/**
 * The @google/genai side of the Gemini provider (loaded by its spec's loader on the first request):
 * the client, and one streamed generateContent request: retries of 429/5xx honouring the
 * server's delay and failure mapping (errors.ts); each attempt's idle watch (its `fetch` handed to
 * the SDK) and abort link, and the redaction, are the shared plumbing's (shared/request.ts).
 */
import { type GenerateContentConfig, GoogleGenAI } from '@google/genai';
import type { ModelSettings } from '../../config/model-settings.js';
import { PACKAGE_VERSION } from '../../config/version.js';
import { HttpTransport } from '../http-transport.js';
import type { RequesterInit } from '../lazy-provider.js';
import { cancelledError, endedEarlyError, redactError } from '../shared/errors.js';
import { watchRequest } from '../shared/request.js';
import { type ChatRequest, type ChatRound, ProviderError, type ProviderTool } from '../types.js';
import { isRetryable, mapGeminiFailure, retryDelayMs } from './errors.js';
import { toGeminiContents } from './messages.js';
import { GEMINI } from './spec.js';
import { readGeminiRound } from './stream.js';
import { toGeminiTools, toolLabel } from './tools.js';

/** Under the SDK's own header name, so it replaces the SDK's (x-goog-api-client still names the SDK). */
const USER_AGENT = `GeekAgent/${PACKAGE_VERSION} google-genai`;

/** Models that think and can stream their thoughts (includeThoughts is refused by older ones). */
const THINKING_MODELS = /gemini-(2\.5|[3-9])|thinking/i;

export class GeminiRequester {
  readonly #settings: ModelSettings & { apiKey: string };
  readonly #model: string;
  readonly #acceptsMedia: boolean;
  readonly #redact: (text: string) => string;
  readonly #client: GoogleGenAI;
  readonly #transport = new HttpTransport();
  /** Tools already reported as left out: each is said once per session. */
  readonly #noted = new Set<string>();
  #callCounter = 0;

  constructor({ settings, model, acceptsMedia, redact }: RequesterInit) {
    this.#settings = settings;
    this.#model = model;
    this.#acceptsMedia = acceptsMedia;
    this.#redact = redact;
    this.#client = new GoogleGenAI({
      apiKey: settings.apiKey,
      // v1beta, as before SDK 3 made v1 the default: thinking parts and the features this client
      // sends are served there.
      httpOptions: { baseUrl: settings.baseURL, apiVersion: 'v1beta', headers: { 'User-Agent': USER_AGENT } },
    });
  }

  async complete(request: ChatRequest): Promise<ChatRound> {
    const { signal } = request;
    if (signal.aborted) throw cancelledError();
    const { systemInstruction, contents } = toGeminiContents(request.messages, this.#acceptsMedia);
    const { declarations, sent } = toGeminiTools(request.tools, (tool, reason) =>
      this.#leftOut(tool, reason, request.onNotice),
    );
    const config: GenerateContentConfig = {
      // We run the tools ourselves, one request per round: no SDK-driven calls or continuations.
      automaticFunctionCalling: { disable: true },
      automaticContinuation: false,
    } as GenerateContentConfig;
    if (systemInstruction !== undefined) config.systemInstruction = systemInstruction;
    if (declarations.length > 0) config.tools = [{ functionDeclarations: declarations }];
    if (THINKING_MODELS.test(this.#model)) config.thinkingConfig = { includeThoughts: true };

    for (let attempt = 0; ; attempt++) {
      if (signal.aborted) throw cancelledError();
      const outcome = await this.#attempt(request, config, contents);
      if (outcome.round) return outcome.round;
      const { error, retryAfter, streamed } = outcome;
      if (streamed || attempt >= this.#settings.maxRetries || !isRetryable(error)) {
        throw this.#mapped(error, signal, sent);
      }
      await pause(retryDelayMs(error, retryAfter, attempt), signal);
    }
  }

  async #attempt(
    request: ChatRequest,
    config: GenerateContentConfig,
    contents: ReturnType<typeof toGeminiContents>['contents'],
  ): Promise<{ round?: ChatRound; error?: unknown; retryAfter: string | null; streamed: boolean }> {
    const { signal } = request;
    // Worded as before the page check took each provider's words (only the variable is Gemini's).
    const watched = watchRequest(signal, this.#settings, this.#transport, {
      variable: GEMINI.env.baseURL,
      expected: 'a chat completion stream',
    });
    const { watch } = watched;
    let retryAfter: string | null = null;
    let streamed = false;
    // The SDK's fetch for this request only: its bytes reset this request's idle timer.
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const response = await watch.fetch(input, init);
      retryAfter = response.headers.get('retry-after');
      return response as unknown as Response;
    };
    try {
      const stream = await this.#client.models.generateContentStream({
        model: this.#model,
        contents,
        config: { ...config, abortSignal: watched.signal, httpOptions: { fetch } },
      });
      const round = await readGeminiRound(
        (async function* () {
          for await (const chunk of watch.paced(stream, request.pace)) {
            streamed = true;
            yield chunk;
          }
        })(),
        {
          onText: request.onText,
          onReasoning: request.onReasoning,
          signal,
          newCallId: () => `gemini_call_${Date.now().toString(36)}_${++this.#callCounter}`,
        },
      );
      if (signal.aborted) throw cancelledError();
      if (watch.timedOut) throw watch.timeoutError();
      if (round.stop === null) throw endedEarlyError();
      return { round, retryAfter, streamed };
    } catch (error) {
      if (watch.timedOut && !signal.aborted)
        return { error: watch.timeoutError(), retryAfter, streamed: true };
      return { error, retryAfter, streamed };
    } finally {
      watched.close();
    }
  }

  #mapped(error: unknown, signal: AbortSignal, sent: readonly ProviderTool[]): unknown {
    const mapped = mapGeminiFailure(error, {
      signal,
      baseURL: this.#settings.baseURL,
      keyVariable: this.#settings.keyVariable,
      sent,
    });
    if (!(mapped instanceof ProviderError)) return mapped;
    return redactError(mapped, this.#redact);
  }

  #leftOut(tool: ProviderTool, reason: string, onNotice: ((message: string) => void) | undefined): void {
    if (this.#noted.has(tool.name)) return;
    this.#noted.add(tool.name);
    onNotice?.(`${toolLabel(tool)} is left out of requests to Gemini: ${reason}`);
  }
}

/** Waits `ms`, or less when the turn is cancelled (the next attempt then sees the abort). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
