/**
 * The conversation history, in the Chat Completions `messages` shape (the spec keeps history as
 * that array). Tool results may carry media parts; providers decide how to send them.
 */
import type { ToolOutput } from '../tools/types.js';

export interface ToolCallRequest {
  id: string;
  name: string;
  /** Raw JSON text as the model produced it; may be malformed. */
  arguments: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: ToolCallRequest[];
      /**
       * The model's chain of thought for a round that called tools (DeepSeek's thinking mode): it
       * must go back with that message in every later request, or the API answers 400.
       */
      reasoning_content?: string;
    }
  | { role: 'tool'; tool_call_id: string; name: string; content: ToolOutput };
