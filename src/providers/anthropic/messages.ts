/**
 * The provider-neutral conversation as Anthropic Messages: system prompts become the top-level
 * `system` text blocks; the rest becomes alternating user/assistant turns, the first a user turn.
 * Tool results go in the next user turn as `tool_result` blocks answering each `tool_use` by id
 * (images inside them for a model that sees); the compaction summary is user text. An assistant
 * reply's own thinking blocks (NativeState of this provider) go back first in its turn, unchanged;
 * another provider's native state is left out. Wire shapes only: no SDK code is loaded here.
 */
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  RedactedThinkingBlockParam,
  TextBlockParam,
  ThinkingBlockParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import { type ContentPart, mediaPlaceholder, outputToText } from '../../tools/types.js';
import { type Message, SUMMARY_PREFIX, userMessageText, userTextWithoutImages } from '../messages.js';

export type ThinkingBlock = ThinkingBlockParam | RedactedThinkingBlockParam;

export interface AnthropicConversation {
  system: TextBlockParam[];
  messages: MessageParam[];
}

type Turn = { role: 'user' | 'assistant'; content: ContentBlockParam[] };
type ToolMessage = Extract<Message, { role: 'tool' }>;

/** The image types the API takes; others go as their placeholder text. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** Stands first when the kept history starts with a reply (its question was compacted away). */
export const CONTINUED = '(earlier conversation left out)';

export function toAnthropicConversation(
  messages: readonly Message[],
  acceptsMedia: boolean,
): AnthropicConversation {
  const system: TextBlockParam[] = [];
  const turns: Turn[] = [];
  const push = (role: Turn['role'], blocks: ContentBlockParam[]): void => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    // Consecutive messages of one role (a summary then the next question) share a turn.
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: [...blocks] });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        if (message.text !== '') system.push({ type: 'text', text: message.text });
        break;
      case 'summary':
        push('user', [text(`${SUMMARY_PREFIX}\n${message.text}`)]);
        break;
      case 'user':
        push('user', userBlocks(message, acceptsMedia));
        break;
      case 'assistant':
        push('assistant', assistantBlocks(message));
        break;
      case 'tool':
        push('user', [toolResult(message, acceptsMedia)]);
        break;
    }
  }
  pairToolResults(turns);
  if (turns[0]?.role === 'assistant') turns.unshift({ role: 'user', content: [text(CONTINUED)] });
  return { system, messages: turns };
}

/** The person's words, then their images as base64 image blocks (placeholders for a text-only model). */
function userBlocks(message: Extract<Message, { role: 'user' }>, acceptsMedia: boolean): ContentBlockParam[] {
  const images = message.images ?? [];
  if (images.length === 0) return [text(userMessageText(message))];
  if (!acceptsMedia) return [text(userTextWithoutImages(message))];
  return [
    text(userMessageText(message)),
    ...images.map(
      (image): ImageBlockParam => ({
        type: 'image',
        source: { type: 'base64', media_type: image.mimeType as 'image/png', data: image.data },
      }),
    ),
  ];
}

/** The thinking blocks this provider stored on an assistant message; [] for anyone else's. */
export function ownThinking(message: Extract<Message, { role: 'assistant' }>): ThinkingBlock[] {
  const native = message.native;
  if (native?.provider !== 'anthropic' || !Array.isArray(native.data)) return [];
  // Saved in the session file: take only well-formed blocks, exactly as they were.
  return native.data.filter(
    (block): block is ThinkingBlock =>
      (block?.type === 'thinking' &&
        typeof block.thinking === 'string' &&
        typeof block.signature === 'string') ||
      (block?.type === 'redacted_thinking' && typeof block.data === 'string'),
  );
}

function assistantBlocks(message: Extract<Message, { role: 'assistant' }>): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [...ownThinking(message)];
  if (message.text !== '') blocks.push(text(message.text));
  for (const call of message.toolCalls ?? []) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: toolInput(call.arguments) });
  }
  return blocks;
}

/** The model's arguments as the object the API wants back; broken JSON (the model's) as {}. */
function toolInput(raw: string): Record<string, unknown> {
  try {
    const value: unknown = raw.trim() === '' ? {} : JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function toolResult(message: ToolMessage, acceptsMedia: boolean): ToolResultBlockParam {
  const block: ToolResultBlockParam = {
    type: 'tool_result',
    tool_use_id: message.callId,
    content: resultContent(message.output, acceptsMedia),
  };
  if (message.isError) block.is_error = true;
  return block;
}

function resultContent(
  output: ToolMessage['output'],
  acceptsMedia: boolean,
): ToolResultBlockParam['content'] {
  if (typeof output === 'string' || !acceptsMedia || !output.some(isImage)) {
    return nonEmpty(outputToText(output));
  }
  const parts: Array<TextBlockParam | ImageBlockParam> = [];
  for (const part of output) {
    if (isImage(part)) {
      parts.push({
        type: 'image',
        source: { type: 'base64', media_type: part.mimeType as 'image/png', data: part.data },
      });
    } else {
      const value = part.type === 'text' ? part.text : mediaPlaceholder(part);
      if (value !== '') parts.push(text(value));
    }
  }
  return parts;
}

function isImage(part: ContentPart): part is Extract<ContentPart, { type: 'image' }> {
  return part.type === 'image' && IMAGE_TYPES.has(part.mimeType);
}

/**
 * Every `tool_use` must be answered in the very next user turn and every `tool_result` must answer
 * one there. A history cut by cancellation or compaction can break that: a missing answer is added
 * as an error result, a result with no call becomes plain text.
 */
function pairToolResults(turns: Turn[]): void {
  for (let i = 0; i < turns.length; i++) {
    const turn = turns[i] as Turn;
    if (turn.role !== 'user') continue;
    const previous = turns[i - 1];
    const asked = new Set(
      previous?.role === 'assistant'
        ? previous.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []))
        : [],
    );
    const answered = new Set<string>();
    const results: ContentBlockParam[] = [];
    const rest: ContentBlockParam[] = [];
    for (const block of turn.content) {
      if (block.type !== 'tool_result') rest.push(block);
      else if (asked.has(block.tool_use_id) && !answered.has(block.tool_use_id)) {
        answered.add(block.tool_use_id);
        results.push(block);
      } else rest.push(text(`(a tool result that answers no call: ${resultText(block)})`));
    }
    for (const id of asked) {
      if (!answered.has(id)) {
        results.push({
          type: 'tool_result',
          tool_use_id: id,
          content: 'no result was recorded',
          is_error: true,
        });
      }
    }
    // Results come first in the turn, as the API requires.
    turn.content = [...results, ...rest];
  }
  // An assistant turn with calls and no user turn after it (the history ends there) gets one.
  const last = turns.at(-1);
  if (last?.role === 'assistant' && last.content.some((block) => block.type === 'tool_use')) {
    turns.push({ role: 'user', content: [] });
    pairToolResults(turns);
  }
}

function resultText(block: ToolResultBlockParam): string {
  if (typeof block.content === 'string') return block.content;
  return (block.content ?? [])
    .map((part) => (part.type === 'text' ? part.text : `[${part.type}]`))
    .join('\n');
}

function text(value: string): TextBlockParam {
  return { type: 'text', text: nonEmpty(value) };
}

/** The API refuses empty text blocks. */
function nonEmpty(value: string): string {
  return value === '' ? '(empty)' : value;
}
