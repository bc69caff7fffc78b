/**
 * The openai SDK side of the Responses provider (loaded by its spec's loader on the first request):
 * the client, the request params (`store: false`, reasoning items carried by the client), and one
 * streamed request on the shared plumbing (shared/request.ts: idle watch, abort link, redaction)
 * with the Chat Completions provider's failure mapping (openai-chat/stream.ts), plus what this
 * API's errors can name: the key variable on a 401, the MCP server and tool an error about
 * `tools[i]` points at.
 */
import OpenAI, { APIError } from 'openai';
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';
import { VERSION as SDK_VERSION } from 'openai/version';
import type { ModelSettings } from '../../config/model-settings.js';
import { PACKAGE_VERSION } from '../../config/version.js';
import { classifyOverflow } from '../context-overflow.js';
import { HttpTransport } from '../http-transport.js';
import type { RequesterInit } from '../lazy-provider.js';
import { mapFailure } from '../openai-chat/stream.js';
import { cancelledError, withMessage } from '../shared/errors.js';
import { sdkClientOptions, streamRound } from '../shared/request.js';
import { type ChatRequest, type ChatRound, ProviderError, type ProviderTool } from '../types.js';
import { toResponsesInput } from './messages.js';
import { droppedToolNote, toolNamedBy, toResponsesTools } from './schema.js';
import { OPENAI_RESPONSES } from './spec.js';
import { readResponsesRound } from './stream.js';

/** Set here: the SDK names itself by its class name, which the minified bundle shortens. */
const USER_AGENT = `GeekAgent/${PACKAGE_VERSION} OpenAI/JS ${SDK_VERSION}`;

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
  readonly #redact: (text: string) => string;
  readonly #client: OpenAI;
  readonly #transport = new HttpTransport();
  /** Tools already noted as left out: each is said once per session. */
  readonly #noted = new Set<string>();

  constructor({ settings, model, acceptsMedia, redact }: RequesterInit) {
    this.#settings = settings;
    this.#model = model;
    this.#acceptsMedia = acceptsMedia;
    this.#redact = redact;
    this.#client = new OpenAI({
      ...sdkClientOptions(settings),
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
    return streamRound(
      request,
      {
        settings: this.#settings,
        transport: this.#transport,
        // Worded as Chat Completions' (its endpoint variable is the same).
        page: { variable: OPENAI_RESPONSES.env.baseURL, expected: 'a chat completion stream' },
        redact: this.#redact,
        mapFailure: (error) =>
          this.#explained(error, classifyOverflow(error, mapFailure(error, signal, baseURL)), sources),
      },
      async (watch, requestSignal) => {
        const client = this.#client.withOptions({ fetch: watch.fetch as unknown as typeof fetch });
        const stream = await client.responses.create(params, { signal: requestSignal });
        return readResponsesRound(
          watch.paced(stream, request.pace),
          request.onText,
          request.onReasoning,
          signal,
        );
      },
    );
  }

  /** Adds what the person needs to act: the key variable on a 401, the tool a 400 is about. */
  #explained(raw: unknown, mapped: unknown, sources: readonly ProviderTool[]): unknown {
    if (!(mapped instanceof ProviderError)) return mapped;
    if (mapped.status === 401) {
      return new ProviderError(`${mapped.message} — check ${this.#settings.keyVariable}`, 401);
    }
    const tool = raw instanceof APIError ? toolNamedBy(raw.param, sources) : undefined;
    if (tool === undefined) return mapped;
    return withMessage(mapped, `${mapped.message} — the ${tool}`);
  }
}
