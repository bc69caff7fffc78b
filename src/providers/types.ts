/**
 * The provider seam: the agent loop talks to a model only through `ChatProvider`, so a second
 * provider can be added without touching the loop.
 */
import type { ToolCall, ToolSpec } from '../tools/types.js';
import type { Message, Usage } from './messages.js';

export type { Message, Usage } from './messages.js';

export type ProviderTool = ToolSpec;

export interface ChatRequest {
  messages: readonly Message[];
  tools: readonly ProviderTool[];
  signal: AbortSignal;
  /** Called with each streamed piece of assistant text. */
  onText?: (delta: string) => void;
  /** Called with each streamed piece of the model's reasoning (`reasoning_content`), for display only. */
  onReasoning?: (delta: string) => void;
}

/** One model round, reassembled from the stream. */
export interface ChatRound {
  text: string;
  /** `reasoning_content` deltas (thinking models such as DeepSeek's), joined; '' when none. */
  reasoning: string;
  toolCalls: ToolCall[];
  usage: Usage | undefined;
  finishReason: string | null;
}

export interface ChatProvider {
  readonly name: string;
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
