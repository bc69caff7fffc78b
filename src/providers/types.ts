/**
 * The provider seam: the agent loop talks to a model only through `ChatProvider`, so a second
 * provider can be added without touching the loop.
 */

import type { ProviderKind } from '../config/provider-kinds.js';
import type { ToolCall, ToolSpec } from '../tools/types.js';
import type { Message, NativeState, Usage } from './messages.js';
import type { RoundStop } from './stop-reason.js';

export type { ProviderKind } from '../config/provider-kinds.js';
export type { Message, NativeState, Usage } from './messages.js';
export type { RoundStop, StopReason } from './stop-reason.js';

export interface ProviderTool extends ToolSpec {
  /** For an MCP tool: its server and the server's own name, so a note or error can name both. */
  origin?: { server: string; tool: string };
  /**
   * Declared after a tool search loaded it: sent after every stable tool, in load order (a provider
   * that marks a cache breakpoint on the tools keeps it on the last stable one).
   */
  loaded?: true;
}

export interface ChatRequest {
  messages: readonly Message[];
  tools: readonly ProviderTool[];
  signal: AbortSignal;
  /** Called with each streamed piece of assistant text. */
  onText?: (delta: string) => void;
  /** Called with each streamed piece of the model's reasoning (`reasoning_content`), for display only. */
  onReasoning?: (delta: string) => void;
  /**
   * A line for the person that is not an error (a tool left out because its schema cannot be
   * sent to this provider). Providers say each thing once per session.
   */
  onNotice?: (message: string) => void;
  /**
   * The face's output is behind (a stream-json consumer that stops reading): a promise the stream
   * waits for before its next chunk, so unread output never piles up; undefined: go on. The idle
   * timeout does not run meanwhile.
   */
  pace?: () => Promise<void> | undefined;
  /**
   * Stable for a whole session (the session id): providers that route requests to a prompt cache
   * by key (OpenAI's `prompt_cache_key`) send it.
   */
  cacheKey?: string;
}

/** One model round, reassembled from the stream. */
export interface ChatRound {
  text: string;
  /** `reasoning_content` deltas (thinking models such as DeepSeek's), joined; '' when none. */
  reasoning: string;
  toolCalls: ToolCall[];
  usage: Usage | undefined;
  /**
   * Why the round ended, in the providers' common words; null when the stream ended without the
   * provider saying it was done (the request reports that as a failure).
   */
  stop: RoundStop | null;
  /** What this provider needs back with this reply in later requests (see NativeState). */
  native?: NativeState;
}

export interface ChatProvider {
  readonly name: ProviderKind;
  readonly model: string;
  /** Context window in tokens, when known; the panel shows usage against it. */
  readonly contextWindow: number;
  /** Whether tool results may carry images/audio to this model. */
  readonly acceptsMedia: boolean;
  complete(request: ChatRequest): Promise<ChatRound>;
  /** Get ready for a request soon (load the client) without waiting; never throws. */
  prepare?(): void;
}

/** A provider failure the person must see: HTTP status (when any) and the server's message. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * The request did not fit the model's context window. Callers may shrink the conversation and
 * try again; the message is the provider's own.
 */
export class ContextOverflowError extends ProviderError {}

/** Raised when no API key is configured; the message is the one-line hint for the person. */
export class ModelNotConfiguredError extends Error {
  override readonly name = 'ModelNotConfiguredError';
}
