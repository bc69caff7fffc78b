/**
 * The provider-neutral conversation vocabulary: what a model request is made of. The agent keeps
 * its history in these shapes (plus ids, agent/history.ts); each provider converts them to its
 * wire format (openai-messages.ts for Chat Completions). Nothing here is a wire type.
 */
import type { ToolCall, ToolOutput } from '../tools/types.js';

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** Marks the one message that stands for the compacted part of a conversation. */
export const SUMMARY_PREFIX = '[Summary of previous conversation]';

export type Message =
  /** Instructions: the system prompt (and a sampling request's own system prompt). */
  | { role: 'system'; text: string }
  | { role: 'user'; text: string }
  | {
      role: 'assistant';
      /** '' when the round only called tools. */
      text: string;
      toolCalls?: ToolCall[];
      /**
       * The model's chain of thought for a round that called tools (DeepSeek's thinking mode):
       * it must go back with that message in every later request, or the API answers 400.
       */
      reasoning?: string;
    }
  | { role: 'tool'; callId: string; name: string; output: ToolOutput; isError?: boolean }
  /** The compacted earlier conversation (providers send it as `[Summary of previous conversation]`). */
  | { role: 'summary'; text: string };

export type MessageRole = Message['role'];
