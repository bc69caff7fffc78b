/**
 * Converts the provider-neutral conversation into Responses API input: the system prompt becomes
 * `instructions`, the rest input items (messages, `function_call` / `function_call_output` pairs,
 * and the reasoning items this provider kept in an assistant message's NativeState, passed back
 * unchanged and in order before that round's calls, as `store: false` requires). Images from tool
 * results go inside the `function_call_output` (its output may be a list of input parts).
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

/** What an assistant message's NativeState holds for this provider. */
export interface ResponsesNativeData {
  /** The round's reasoning items exactly as the API sent them (id, summary, encrypted_content). */
  reasoning: ResponseReasoningItem[];
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
        if (message.text !== '') input.push({ type: 'message', role: 'assistant', content: message.text });
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
