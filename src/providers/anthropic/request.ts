/**
 * The @anthropic-ai/sdk side of the Anthropic provider (loaded by its spec's loader on the first
 * request): the client, and one streamed Messages request — params (system, turns, tools with
 * cache breakpoints, thinking), retries by the SDK (429 and 529 with backoff, honouring
 * retry-after) and failure mapping (errors.ts); idle watch, abort link and redaction are the shared
 * plumbing's (shared/request.ts).
 */
import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import { VERSION as SDK_VERSION } from '@anthropic-ai/sdk/version';
import { PACKAGE_VERSION } from '../../config/version.js';
import { HttpTransport } from '../http-transport.js';
import type { RequesterInit } from '../lazy-provider.js';
import { cancelledError } from '../shared/errors.js';
import { sdkClientOptions, streamRound } from '../shared/request.js';
import type { ChatRequest, ChatRound, Message } from '../types.js';
import { markBreakpoints } from './cache.js';
import { mapFailure } from './errors.js';
import { replyLimits } from './limits.js';
import { ownThinking, toAnthropicConversation } from './messages.js';
import { toAnthropicTools } from './schema.js';
import { ANTHROPIC } from './spec.js';
import { readRound } from './stream.js';

/** Set here: the minified bundle shortens the SDK's class name, which it would name itself by. */
const USER_AGENT = `GeekAgent/${PACKAGE_VERSION} Anthropic/JS ${SDK_VERSION}`;

export class AnthropicRequester {
  readonly #settings: RequesterInit['settings'];
  readonly #model: string;
  readonly #acceptsMedia: boolean;
  readonly #redact: (text: string) => string;
  readonly #client: Anthropic;
  readonly #transport = new HttpTransport();
  /** Tools already reported as left out: each is said once per session. */
  readonly #noticed = new Set<string>();

  constructor({ settings, model, acceptsMedia, redact }: RequesterInit) {
    this.#settings = settings;
    this.#model = model;
    this.#acceptsMedia = acceptsMedia;
    this.#redact = redact;
    this.#client = new Anthropic({
      ...sdkClientOptions(settings),
      // The API's documented key header. This SDK version sends a key as `Authorization: Bearer`;
      // a null there takes that out, so the key goes once, where every endpoint reads it.
      defaultHeaders: { 'user-agent': USER_AGENT, 'x-api-key': settings.apiKey, authorization: null },
    });
  }

  /** The request body for `request`, and the tools as sent (by index, for errors); says once which tools were left out. */
  params(request: ChatRequest): { params: MessageCreateParamsStreaming; sent: ChatRequest['tools'] } {
    const converted = toAnthropicTools(request.tools);
    for (const { tool, reason } of converted.dropped) {
      const who = tool.origin
        ? `tool ${JSON.stringify(tool.origin.tool)} of MCP server ${JSON.stringify(tool.origin.server)}`
        : `tool ${JSON.stringify(tool.name)}`;
      if (this.#noticed.has(who)) continue;
      this.#noticed.add(who);
      request.onNotice?.(`${who} left out for Anthropic: ${reason}`);
    }
    return {
      params: buildParams(
        request.messages,
        converted.tools,
        this.#model,
        this.#acceptsMedia,
        this.#settings.thinkingBudget,
        stableTools(converted.sources),
      ),
      sent: converted.sources,
    };
  }

  async complete(request: ChatRequest): Promise<ChatRound> {
    const { signal } = request;
    if (signal.aborted) throw cancelledError();
    const { params, sent } = this.params(request);
    const context = {
      signal,
      baseURL: this.#settings.baseURL,
      keyVariable: this.#settings.keyVariable,
      baseURLVariable: ANTHROPIC.env.baseURL,
      tools: sent,
    };
    return streamRound(
      request,
      {
        settings: this.#settings,
        transport: this.#transport,
        page: { variable: ANTHROPIC.env.baseURL, expected: 'an event stream' },
        redact: this.#redact,
        mapFailure: (error) => mapFailure(error, context),
      },
      async (watch, requestSignal) => {
        // A client per request (connections stay pooled in the transport) so its fetch reports
        // this request's bytes to this request's watch.
        const client = this.#client.withOptions({ fetch: watch.fetch as unknown as typeof fetch });
        const stream = await client.messages.create(params, { signal: requestSignal });
        return readRound(watch.paced(stream, request.pace), request.onText, request.onReasoning, signal);
      },
    );
  }
}

/** How many tools lead the list before the first one a tool search loaded (all when none). */
function stableTools(sources: readonly ChatRequest['tools'][number][]): number {
  const first = sources.findIndex((tool) => tool.loaded);
  return first < 0 ? sources.length : first;
}

/**
 * The Messages request for a conversation: pure, so unit tests can check it whole. `stable`: the
 * leading tools that stay the same all session (the tools' breakpoint goes on the last of them).
 */
export function buildParams(
  messages: readonly Message[],
  tools: ReturnType<typeof toAnthropicTools>['tools'],
  model: string,
  acceptsMedia: boolean,
  thinkingBudget: number | undefined,
  stable = tools.length,
): MessageCreateParamsStreaming {
  const conversation = toAnthropicConversation(messages, acceptsMedia);
  const request = { tools: [...tools], system: conversation.system, messages: conversation.messages };
  markBreakpoints(request, stable);
  const limits = replyLimits(model, thinkingBudget);
  const params: MessageCreateParamsStreaming = {
    model,
    max_tokens: limits.maxTokens,
    messages: request.messages,
    stream: true,
  };
  if (request.system.length > 0) params.system = request.system;
  if (request.tools.length > 0) params.tools = request.tools;
  if (limits.thinkingBudget !== undefined && canThink(messages)) {
    params.thinking = { type: 'enabled', budget_tokens: limits.thinkingBudget };
  }
  return params;
}

/**
 * With thinking on, a tool loop's assistant turn must start with its thinking block. A loop begun
 * without one (by another provider, or with thinking off) continues with thinking off, as the
 * API's documentation advises, rather than being refused.
 */
function canThink(messages: readonly Message[]): boolean {
  const last = messages.at(-1);
  if (last?.role !== 'tool') return true;
  const assistant = messages.findLast((message) => message.role === 'assistant');
  return assistant?.role === 'assistant' && ownThinking(assistant).length > 0;
}
