/**
 * Token estimates without a tokenizer: characters times a ratio, four characters a token until a
 * provider reports real usage, then that request's own ratio (so a CJK-heavy or code-heavy
 * conversation is measured by what the model actually counted).
 */
import { type Message, userMessageText } from '../providers/messages.js';
import type { ToolSpec } from '../tools/types.js';
import { outputToText } from '../tools/types.js';

export const DEFAULT_TOKENS_PER_CHAR = 0.25;
/** Per-message framing the wire format adds (role, separators): a few tokens each. */
const MESSAGE_OVERHEAD_CHARS = 16;
/**
 * What an attached image is counted as: about 1,600 tokens (a large image on the Anthropic and
 * OpenAI scales), never its base64 length, which no API bills.
 */
const IMAGE_CHARS = 6_400;
/** A reported ratio outside this is a server's accounting quirk, not a property of the text. */
const MIN_RATIO = 0.05;
const MAX_RATIO = 2;

export function messageChars(message: Message): number {
  switch (message.role) {
    case 'system':
    case 'summary':
      return message.text.length + MESSAGE_OVERHEAD_CHARS;
    case 'user':
      return (
        userMessageText(message).length + (message.images?.length ?? 0) * IMAGE_CHARS + MESSAGE_OVERHEAD_CHARS
      );
    case 'assistant': {
      let chars = message.text.length + (message.reasoning?.length ?? 0) + MESSAGE_OVERHEAD_CHARS;
      for (const call of message.toolCalls ?? []) chars += call.name.length + call.arguments.length + 24;
      return chars;
    }
    case 'tool':
      return outputToText(message.output).length + message.callId.length + MESSAGE_OVERHEAD_CHARS;
  }
}

export function messagesChars(messages: readonly Message[]): number {
  let chars = 0;
  for (const message of messages) chars += messageChars(message);
  return chars;
}

export function toolsChars(tools: readonly ToolSpec[]): number {
  return tools.length === 0 ? 0 : JSON.stringify(tools).length;
}

/** The ratio a request's reported prompt tokens imply, or undefined when it says nothing useful. */
export function observedRatio(promptTokens: number, requestChars: number): number | undefined {
  if (promptTokens <= 0 || requestChars <= 0) return undefined;
  return Math.min(MAX_RATIO, Math.max(MIN_RATIO, promptTokens / requestChars));
}
