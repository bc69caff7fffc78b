/**
 * The neutral conversation as Gemini `contents` plus a `systemInstruction`. Model turns go back
 * as Gemini sent them (the parts kept in NativeState, thought signatures on the same parts: Gemini
 * 3 rejects a function-call turn without its signature); tool results answer their calls by name
 * (and id, when Gemini gave one) in the next user turn, with MCP images as inlineData parts;
 * consecutive turns of one role are merged.
 */
import type { Content, Part } from '@google/genai';
import type { ToolCall } from '../../tools/types.js';
import { outputToText } from '../../tools/types.js';
import { type Message, SUMMARY_PREFIX, userMessageText, userTextWithoutImages } from '../messages.js';

/** What the gemini provider keeps on an assistant message: the model turn's parts as received. */
export interface GeminiNative {
  parts: Part[];
}

/**
 * Google's documented stand-in for a function-call turn that has no signature of Gemini's own
 * (it came from another provider, or from before a switch): the API then skips the check.
 */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';

type AssistantMessage = Extract<Message, { role: 'assistant' }>;
type ToolMessage = Extract<Message, { role: 'tool' }>;

export interface GeminiRequestBody {
  systemInstruction: string | undefined;
  contents: Content[];
}

export function toGeminiContents(messages: readonly Message[], acceptsMedia: boolean): GeminiRequestBody {
  const system: string[] = [];
  const contents: Content[] = [];
  // Gemini's own call ids, so a result answers with the id only where the call had one.
  const callIds = new Set<string>();
  const push = (role: 'user' | 'model', parts: Part[]): void => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts = [...(last.parts ?? []), ...parts];
    else contents.push({ role, parts });
  };
  // Images follow the whole run of results, so the function responses stay together.
  let media: Part[] = [];
  for (const message of messages) {
    if (message.role !== 'tool' && media.length > 0) {
      push('user', media);
      media = [];
    }
    switch (message.role) {
      case 'system':
        system.push(message.text);
        break;
      case 'summary':
        push('user', [{ text: `${SUMMARY_PREFIX}\n${message.text}` }]);
        break;
      case 'user':
        push('user', userParts(message, acceptsMedia));
        break;
      case 'assistant':
        push('model', modelParts(message, callIds));
        break;
      case 'tool':
        push('user', [responsePart(message, callIds)]);
        if (acceptsMedia) media.push(...mediaParts(message));
        break;
    }
  }
  push('user', media);
  return { systemInstruction: system.length > 0 ? system.join('\n\n') : undefined, contents };
}

/** The person's words, then their images as inlineData parts (placeholders for a text-only model). */
function userParts(message: Extract<Message, { role: 'user' }>, acceptsMedia: boolean): Part[] {
  const images = message.images ?? [];
  if (images.length === 0) return [{ text: userMessageText(message) }];
  if (!acceptsMedia) return [{ text: userTextWithoutImages(message) }];
  return [
    { text: userMessageText(message) },
    ...images.map((image) => ({ inlineData: { mimeType: image.mimeType, data: image.data } })),
  ];
}

/** The model turn: Gemini's own parts when they still match the message, else rebuilt. */
function modelParts(message: AssistantMessage, callIds: Set<string>): Part[] {
  const calls = message.toolCalls ?? [];
  const native = nativeParts(message);
  if (native && matches(native, calls)) {
    let index = 0;
    return native.map((part) => {
      if (!part.functionCall) return part;
      const call = calls[index++] as ToolCall;
      // The history's id is the one the tool result carries; Gemini's own id went out as the same.
      if (part.functionCall.id) callIds.add(call.id);
      return part;
    });
  }
  const parts: Part[] = [];
  if (message.text !== '') parts.push({ text: message.text });
  calls.forEach((call, index) => {
    const part: Part = { functionCall: { name: call.name, args: parseArgs(call.arguments) } };
    if (index === 0) part.thoughtSignature = SKIP_SIGNATURE;
    parts.push(part);
  });
  return parts;
}

function nativeParts(message: AssistantMessage): Part[] | undefined {
  if (message.native?.provider !== 'gemini') return undefined;
  const data = message.native.data as Partial<GeminiNative> | undefined;
  return Array.isArray(data?.parts) ? data.parts : undefined;
}

/** The kept parts call the same tools, in the same order, as the message (a history edit would show). */
function matches(parts: readonly Part[], calls: readonly ToolCall[]): boolean {
  const named = parts.filter((part) => part.functionCall).map((part) => part.functionCall?.name);
  return named.length === calls.length && named.every((name, index) => name === calls[index]?.name);
}

/** The result as Gemini wants it: `output` on success, `error` on failure (its documented keys). */
function responsePart(message: ToolMessage, callIds: Set<string>): Part {
  const text = outputToText(message.output);
  return {
    functionResponse: {
      name: message.name,
      response: message.isError ? { error: text } : { output: text },
      ...(callIds.has(message.callId) ? { id: message.callId } : {}),
    },
  };
}

/** A tool result's images as inlineData parts, introduced by a line naming the tool. */
function mediaParts(message: ToolMessage): Part[] {
  if (typeof message.output === 'string') return [];
  const images = message.output.flatMap((part) => (part.type === 'image' ? [part] : []));
  if (images.length === 0) return [];
  return [
    { text: `Images returned by tool ${message.name}:` },
    ...images.map((image) => ({ inlineData: { mimeType: image.mimeType, data: image.data } })),
  ];
}

/** Gemini takes the arguments as an object; text that is not one (malformed JSON) goes as `{}`. */
function parseArgs(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
