/**
 * The openai SDK side of the Responses provider (loaded by `provider.ts` on the first request):
 * the client, the request params (`store: false`, reasoning items carried by the client), and one
 * streamed request with the same idle watch, abort link, failure mapping and redaction as the
 * Chat Completions provider (openai-request.ts), plus what this API's errors can name: the key
 * variable on a 401, the MCP server and tool an error about `tools[i]` points at.
 */
import OpenAI, { APIError } from 'openai';
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';
import { VERSION as SDK_VERSION } from 'openai/version';
import { DEFAULT_REQUEST_TIMEOUT_MS, type ModelSettings } from '../../config/model-settings.js';
import { PACKAGE_VERSION } from '../../config/version.js';
import { classifyOverflow } from '../context-overflow.js';
import { HttpTransport } from '../http-transport.js';
import type { RequesterInit } from '../lazy-provider.js';
import { cancelledError, endedEarlyError, mapFailure } from '../openai-stream.js';
import { RequestWatch } from '../request-watch.js';
import {
  type ChatRequest,
  type ChatRound,
  ContextOverflowError,
  ProviderError,
  type ProviderTool,
} from '../types.js';
import { toResponsesInput } from './messages.js';
import { droppedToolNote, toolNamedBy, toResponsesTools } from './schema.js';
import { readResponsesRound } from './stream.js';

/** Set here: the SDK names itself by its class name, which the minified bundle shortens. */
const USER_AGENT = `GeekAgent/${PACKAGE_VERSION} OpenAI/JS ${SDK_VERSION}`;
/** The SDK's own per-request timeout is replaced by our idle timer; this only keeps it out of the way. */
const SDK_TIMEOUT_MS = 2_147_483_647;

/**
 * OpenAI's reasoning models (gpt-5 and its variants, the o-series, codex): they take `reasoning`
 * and return reasoning items. gpt-5's chat variants do not; other models refuse the parameter.
 */
export function isReasoningModel(model: string): boolean {
  const name = model.toLowerCase().split('/').pop() ?? '';
  if (/^gpt-5(\.\d+)?-chat/.test(name)) return false;
  return /^(gpt-5|o\d|codex)/.test(name);
}

export class ResponsesRequester {
  readonly #settings: ModelSettings;
  readonly #model: string;
  readonly #acceptsMedia: boolean;
  readonly #timeoutMs: number;
  readonly #redact: (text: string) => string;
  readonly #client: OpenAI;
  readonly #transport = new HttpTransport();
  /** Tools already noted as left out: each is said once per session. */
  readonly #noted = new Set<string>();

  constructor({ settings, model, acceptsMedia, redact }: RequesterInit) {
    this.#settings = settings;
    this.#model = model;
    this.#acceptsMedia = acceptsMedia;
    this.#timeoutMs = settings.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#redact = redact;
    this.#client = new OpenAI({
      baseURL: settings.baseURL,
      apiKey: settings.apiKey,
      maxRetries: settings.maxRetries,
      timeout: SDK_TIMEOUT_MS,
      defaultHeaders: { 'user-agent': USER_AGENT },
    });
  }

  /** The request params, and the tool each entry of `tools` stands for (errors name it). */
  params(request: Pick<ChatRequest, 'messages' | 'tools' | 'cacheKey' | 'onNotice'>): {
    params: ResponseCreateParamsStreaming;
    sources: ProviderTool[];
  } {
    const { instructions, input } = toResponsesInput(request.messages, this.#acceptsMedia);
    const converted = toResponsesTools(request.tools);
    // Counted as said only where someone hears it (a compaction request has no notice line).
    for (const { tool, reason } of request.onNotice ? converted.dropped : []) {
      if (this.#noted.has(tool.name)) continue;
      this.#noted.add(tool.name);
      request.onNotice?.(droppedToolNote(tool, reason));
    }
    // Nothing is kept on the server: every request carries the whole conversation, reasoning
    // items included (encrypted, as only this provider can read them).
    const params: ResponseCreateParamsStreaming = { model: this.#model, input, stream: true, store: false };
    if (instructions !== undefined) params.instructions = instructions;
    if (converted.tools.length > 0) {
      params.tools = converted.tools;
      params.parallel_tool_calls = true;
    }
    if (isReasoningModel(this.#model)) {
      params.reasoning = { summary: 'auto' };
      params.include = ['reasoning.encrypted_content'];
    }
    if (request.cacheKey) params.prompt_cache_key = request.cacheKey;
    return { params, sources: converted.sources };
  }

  async complete(request: ChatRequest): Promise<ChatRound> {
    const { signal } = request;
    if (signal.aborted) throw cancelledError();
    const { params, sources } = this.params(request);
    const baseURL = this.#settings.baseURL;
    // A child signal per request: the SDK leaves its listener on the signal it is given.
    const requestAbort = new AbortController();
    const forward = () => requestAbort.abort(signal.reason);
    signal.addEventListener('abort', forward, { once: true });
    const watch = new RequestWatch(this.#timeoutMs, baseURL, () => requestAbort.abort(), this.#transport);
    const client = this.#client.withOptions({ fetch: watch.fetch as unknown as typeof fetch });
    watch.start();
    let round: ChatRound;
    try {
      const stream = await client.responses.create(params, { signal: requestAbort.signal });
      round = await readResponsesRound(
        watch.paced(stream, request.pace),
        request.onText,
        request.onReasoning,
        signal,
      );
    } catch (error) {
      if (watch.timedOut && !signal.aborted) throw this.#redacted(watch.timeoutError());
      const mapped = classifyOverflow(error, mapFailure(error, signal, baseURL));
      throw this.#redacted(this.#explained(error, mapped, sources));
    } finally {
      watch.stop();
      signal.removeEventListener('abort', forward);
    }
    if (signal.aborted) throw cancelledError();
    if (watch.timedOut) throw this.#redacted(watch.timeoutError());
    if (round.stop === null) throw endedEarlyError();
    return round;
  }

  /** Adds what the person needs to act: the key variable on a 401, the tool a 400 is about. */
  #explained(raw: unknown, mapped: unknown, sources: readonly ProviderTool[]): unknown {
    if (!(mapped instanceof ProviderError)) return mapped;
    if (mapped.status === 401) {
      return new ProviderError(`${mapped.message} — check ${this.#settings.keyVariable}`, 401);
    }
    const tool = raw instanceof APIError ? toolNamedBy(raw.param, sources) : undefined;
    if (tool === undefined) return mapped;
    return sameKind(mapped, `${mapped.message} — the ${tool}`);
  }

  #redacted(error: unknown): unknown {
    if (!(error instanceof ProviderError)) return error;
    const message = this.#redact(error.message);
    return message === error.message ? error : sameKind(error, message);
  }
}

/** A copy with a new message that keeps what the agent acts on (overflow → compaction). */
function sameKind(error: ProviderError, message: string): ProviderError {
  return error instanceof ContextOverflowError
    ? new ContextOverflowError(message, error.status)
    : new ProviderError(message, error.status);
}
