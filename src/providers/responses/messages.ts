/**
 * Converts the provider-neutral conversation into Responses API input: the system prompt becomes
 * `instructions`, the rest input items (messages, `function_call` / `function_call_output` pairs,
 * and the reasoning items this provider kept in an assistant message's NativeState, passed back
 * unchanged and in order before that round's calls, as `store: false` requires). An assistant
 * message goes back as the message items it came as, each with its `phase` (`commentary`,
 * `final_answer`), which the API asks to have resent unchanged. Images from tool results go inside
 * the `function_call_output` (its output may be a list of input parts).
 */
import type {
  ResponseFunctionCallOutputItemList,
  ResponseInputItem,
  ResponseReasoningItem,
} from 'openai/resources/responses/responses';
import { type ContentPart, outputToText, type ToolOutput } from '../../tools/types.js';
import {
  type Message,
  type NativeState,
  SUMMARY_PREFIX,
  userMessageText,
  userTextWithoutImages,
} from '../messages.js';

export const RESPONSES_KIND = 'openai-responses';

/**
 * The label the API gives an assistant message item: `commentary` or `final_answer` today (absent
 * on older models). Any short lowercase label is kept, so that one added later also goes back.
 */
export type MessagePhase = 'commentary' | 'final_answer';
const PHASE_SHAPE = /^[a-z_]{1,32}$/;

/** One output message item of a round: how much of the round's text it holds, and its phase. */
export interface MessageSpan {
  /** UTF-16 length of this item's share of the assistant message's text (they add up to it). */
  length: number;
  phase: MessagePhase | null;
}

/** What an assistant message's NativeState holds for this provider. */
export interface ResponsesNativeData {
  /** The round's reasoning items exactly as the API sent them (id, summary, encrypted_content). */
  reasoning: ResponseReasoningItem[];
  /** The round's message items in order, when any had a phase (the text itself is the message's). */
  messages?: MessageSpan[];
}

export interface ResponsesInput {
  instructions: string | undefined;
  input: ResponseInputItem[];
}

export function toResponsesInput(messages: readonly Message[], acceptsMedia: boolean): ResponsesInput {
  let instructions: string | undefined;
  const input: ResponseInputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        // The first is the system prompt; any later one is kept in its place as a developer message.
        if (instructions === undefined) instructions = message.text;
        else input.push({ type: 'message', role: 'developer', content: message.text });
        break;
      case 'summary':
        input.push({ type: 'message', role: 'developer', content: `${SUMMARY_PREFIX}\n${message.text}` });
        break;
      case 'user':
        input.push(userItem(message, acceptsMedia));
        break;
      case 'assistant':
        input.push(...reasoningItems(message.native));
        input.push(...assistantItems(message.text, message.native));
        for (const call of message.toolCalls ?? []) {
          input.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments });
        }
        break;
      case 'tool':
        input.push({
          type: 'function_call_output',
          call_id: message.callId,
          output: toolOutput(message.output, acceptsMedia),
        });
        break;
    }
  }
  return { instructions, input };
}

/** The person's message: text alone, or input_text then input_image parts (data URLs). */
function userItem(message: Extract<Message, { role: 'user' }>, acceptsMedia: boolean): ResponseInputItem {
  const images = message.images ?? [];
  if (images.length === 0) return { type: 'message', role: 'user', content: userMessageText(message) };
  if (!acceptsMedia) return { type: 'message', role: 'user', content: userTextWithoutImages(message) };
  return {
    type: 'message',
    role: 'user',
    content: [
      { type: 'input_text', text: userMessageText(message) },
      ...images.map((image) => ({
        type: 'input_image' as const,
        image_url: `data:${image.mimeType};base64,${image.data}`,
        detail: 'auto' as const,
      })),
    ],
  };
}

/** This provider's reasoning items from a NativeState; nothing for another provider's state. */
export function reasoningItems(native: NativeState | undefined): ResponseReasoningItem[] {
  if (native?.provider !== RESPONSES_KIND) return [];
  const data = native.data as Partial<ResponsesNativeData> | null;
  if (!data || !Array.isArray(data.reasoning)) return [];
  // Saved sessions are JSON on disk: anything that is not a reasoning item is left out, not sent.
  return data.reasoning.filter(
    (item): item is ResponseReasoningItem =>
      typeof item === 'object' && item !== null && item.type === 'reasoning' && typeof item.id === 'string',
  );
}

/**
 * The assistant's text as the message items it came as, each with its phase; one plain message
 * when the state has no phases (another provider's reply, an older model) or no longer fits the
 * text (the spans must add up to it exactly, or they are not this text's).
 */
export function assistantItems(text: string, native: NativeState | undefined): ResponseInputItem[] {
  const spans = messageSpans(native);
  if (spans.length === 0 || spans.reduce((sum, span) => sum + span.length, 0) !== text.length) {
    return text === '' ? [] : [{ type: 'message', role: 'assistant', content: text }];
  }
  const items: ResponseInputItem[] = [];
  let at = 0;
  for (const { length, phase } of spans) {
    const content = text.slice(at, at + length);
    at += length;
    // An item without text is left out, as a round without text sends no message.
    if (content === '') continue;
    items.push(
      phase === null
        ? { type: 'message', role: 'assistant', content }
        : { type: 'message', role: 'assistant', content, phase },
    );
  }
  return items;
}

/** This provider's message spans from a NativeState (saved sessions are JSON: checked). */
function messageSpans(native: NativeState | undefined): MessageSpan[] {
  if (native?.provider !== RESPONSES_KIND) return [];
  const data = native.data as Partial<ResponsesNativeData> | null;
  if (!data || !Array.isArray(data.messages)) return [];
  const valid = data.messages.every(
    (span) =>
      typeof span === 'object' &&
      span !== null &&
      Number.isSafeInteger(span.length) &&
      span.length >= 0 &&
      (span.phase === null || phaseOf(span) !== null),
  );
  return valid ? data.messages : [];
}

/** The phase an output message item carries, or null (absent, or not a label's shape). */
export function phaseOf(item: { phase?: unknown }): MessagePhase | null {
  return typeof item.phase === 'string' && PHASE_SHAPE.test(item.phase) ? (item.phase as MessagePhase) : null;
}

/** Text alone stays a string (what every server takes); media becomes a list of input parts. */
function toolOutput(output: ToolOutput, acceptsMedia: boolean): string | ResponseFunctionCallOutputItemList {
  if (typeof output === 'string' || !acceptsMedia || !output.some((part) => part.type === 'image')) {
    return outputToText(output);
  }
  return output.map(inputPart);
}

function inputPart(part: ContentPart): ResponseFunctionCallOutputItemList[number] {
  if (part.type === 'image') {
    return { type: 'input_image', image_url: `data:${part.mimeType};base64,${part.data}`, detail: 'auto' };
  }
  // Audio has no place in a function output: it goes as its placeholder text.
  return { type: 'input_text', text: part.type === 'text' ? part.text : outputToText([part]) };
}
