/**
 * The provider-neutral conversation vocabulary: what a model request is made of. The agent keeps
 * its history in these shapes (plus ids, agent/history.ts); each provider converts them to its
 * wire format (openai-chat/messages.ts for Chat Completions). Nothing here is a wire type.
 */

import type { ProviderKind } from '../config/provider-kinds.js';
import type { ToolCall, ToolOutput } from '../tools/types.js';

/**
 * One request's (or a sum's) token counts in GeekAgent's own names; each provider maps its wire
 * names here, and the print JSON maps back to its documented names (stream-json/result.ts).
 */
export interface Usage {
  /** Every input token of the request, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Input tokens the provider read from its prompt cache (part of inputTokens); absent: unknown. */
  cachedInputTokens?: number;
}

/**
 * What one provider needs back from its own earlier reply and no other provider can read:
 * Anthropic thinking blocks with their signatures, Responses reasoning items, Gemini thought
 * signatures. JSON data (it is saved with the session); a provider sends it back only when
 * `provider` is its own kind and leaves it out otherwise.
 */
export interface NativeState {
  provider: ProviderKind;
  data: unknown;
}

/** Marks the one message that stands for the compacted part of a conversation. */
export const SUMMARY_PREFIX = '[Summary of previous conversation]';

export type Message =
  /** Instructions: the system prompt (and a sampling request's own system prompt). */
  | { role: 'system'; text: string }
  | {
      role: 'user';
      text: string;
      /**
       * What the turn added for the model alone (recalled memory, reminders): sent before `text`
       * in the same user message (see `userMessageText`), kept byte-identical in every later
       * request so the provider's prompt cache holds; not shown as the person's words.
       */
      context?: string;
      /** Images the person attached (`@shot.png`, a pasted path, `--image`), in order (see UserImage). */
      images?: UserImage[];
    }
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
      /** The provider's own state for this reply (see NativeState). */
      native?: NativeState;
    }
  | { role: 'tool'; callId: string; name: string; output: ToolOutput; isError?: boolean }
  /** The compacted earlier conversation (providers send it as `[Summary of previous conversation]`). */
  | { role: 'summary'; text: string };

export type MessageRole = Message['role'];

/**
 * An image the person attached to a message: base64 data and its type, read from the file's own
 * bytes (never its name). Kept in the history and the session file as it is (each one capped by
 * the provider's limit when attached), so a continued session sends it again.
 */
export interface UserImage {
  /** The path as the person gave it (for notes and the placeholder a text-only model gets). */
  name: string;
  mimeType: string;
  data: string;
}

/** What stands for an image a model cannot take (a text-only model after a switch). */
export function imagePlaceholder(image: UserImage): string {
  return `[image ${image.name} (${image.mimeType}) not sent: this model does not accept images]`;
}

/** The user message's text, with placeholders for its images when they are not sent. */
export function userTextWithoutImages(message: {
  text: string;
  context?: string;
  images?: UserImage[];
}): string {
  const images = message.images ?? [];
  const text = userMessageText(message);
  return images.length === 0 ? text : [text, ...images.map(imagePlaceholder)].join('\n');
}

/** The text a user message is sent as: its turn context first (when any), then the person's words. */
export function userMessageText(message: { text: string; context?: string }): string {
  return message.context ? `${message.context}\n\n${message.text}` : message.text;
}
