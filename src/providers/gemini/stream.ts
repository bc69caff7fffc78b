/**
 * Reads one streamed generateContent reply into a ChatRound: text parts to onText, thought parts
 * to onReasoning, function calls (parallel ones too) as tool calls, usage from usageMetadata, and
 * the model turn's parts with their thought signatures kept as NativeState for later requests.
 * A reply Gemini stopped for a reason of its own (SAFETY, RECITATION, a malformed call …) is
 * a failure when nothing came, else a cut round (its stop says why).
 */
import type { GenerateContentResponse, Part } from '@google/genai';
import type { ToolCall } from '../../tools/types.js';
import { deliver as deliverDelta } from '../shared/errors.js';
import { type RoundStop, roundStop } from '../stop-reason.js';
import { type ChatRound, ProviderError, type Usage } from '../types.js';
import type { GeminiNative } from './messages.js';

export interface StreamHandlers {
  onText?: (delta: string) => void;
  onReasoning?: (delta: string) => void;
  signal: AbortSignal;
  /** An id for a call Gemini sent without one. */
  newCallId: () => string;
}

/** Reasons Gemini's own filters gave: the common `content_filter`. */
const FILTERS = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']);

/** Why Gemini stopped, in words, for the reasons that are not a normal end. */
const STOP_REASONS: Record<string, string> = {
  SAFETY: 'the reply was blocked by Gemini’s safety filters',
  RECITATION: 'the reply was stopped for reciting copyrighted material',
  LANGUAGE: 'the reply is in a language Gemini does not support',
  BLOCKLIST: 'the reply contained a blocked term',
  PROHIBITED_CONTENT: 'the reply was blocked as prohibited content',
  SPII: 'the reply contained sensitive personal information',
  MALFORMED_FUNCTION_CALL: 'the model produced a malformed function call',
  UNEXPECTED_TOOL_CALL: 'the model called a tool that was not declared',
  TOO_MANY_TOOL_CALLS: 'the model made too many tool calls',
  IMAGE_SAFETY: 'a generated image was blocked by Gemini’s safety filters',
  OTHER: 'Gemini stopped the reply for an unspecified reason',
};

export async function readGeminiRound(
  stream: AsyncIterable<GenerateContentResponse>,
  handlers: StreamHandlers,
): Promise<ChatRound> {
  let text = '';
  let reasoning = '';
  let usage: Usage | undefined;
  let finish: string | undefined;
  let blocked: string | undefined;
  const parts: Part[] = [];
  const toolCalls: ToolCall[] = [];

  for await (const chunk of stream) {
    if (handlers.signal.aborted) break;
    if (chunk.usageMetadata) usage = toUsage(chunk.usageMetadata) ?? usage;
    if (chunk.promptFeedback?.blockReason) blocked = chunk.promptFeedback.blockReason;
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      if (part.functionCall) {
        const id = part.functionCall.id || handlers.newCallId();
        toolCalls.push({
          id,
          name: part.functionCall.name ?? '',
          arguments: JSON.stringify(part.functionCall.args ?? {}),
        });
        parts.push(part);
      } else if (typeof part.text === 'string') {
        if (part.thought) {
          reasoning += part.text;
          deliver(handlers.onReasoning, part.text);
        } else {
          text += part.text;
          deliver(handlers.onText, part.text);
        }
        appendText(parts, part);
      } else if (part.thoughtSignature) {
        // A signature alone: it belongs with the turn, on a part of its own as it came.
        parts.push(part);
      }
    }
    if (candidate?.finishReason) finish = candidate.finishReason;
  }

  if (blocked) {
    throw new ProviderError(`model request failed: Gemini blocked the prompt (${blocked})`);
  }
  const round: ChatRound = {
    text,
    reasoning,
    toolCalls,
    usage,
    stop: finish === undefined ? null : geminiStop(finish, toolCalls.length > 0),
  };
  if (parts.some((part) => part.thoughtSignature || part.functionCall)) {
    const data: GeminiNative = { parts };
    round.native = { provider: 'gemini', data };
  }
  const reason = finish ? STOP_REASONS[finish] : undefined;
  // With nothing to show, the stop is the answer; with something, the round is cut (its stop says why).
  if (reason && text === '' && toolCalls.length === 0) {
    throw new ProviderError(`model request failed: ${reason} (Gemini finishReason ${finish})`);
  }
  return round;
}

/** Consecutive text of one kind becomes one part; a part with a signature closes its run. */
function appendText(parts: Part[], part: Part): void {
  if (part.text === '' && !part.thoughtSignature) return;
  const last = parts.at(-1);
  const sameKind =
    last && typeof last.text === 'string' && !last.functionCall && !!last.thought === !!part.thought;
  if (sameKind && !last.thoughtSignature) {
    last.text = `${last.text ?? ''}${part.text ?? ''}`;
    if (part.thoughtSignature) last.thoughtSignature = part.thoughtSignature;
    return;
  }
  const copy: Part = { text: part.text ?? '' };
  if (part.thought) copy.thought = true;
  if (part.thoughtSignature) copy.thoughtSignature = part.thoughtSignature;
  parts.push(copy);
}

/** Gemini's `finishReason` in the common words, with its own explanation where it has one. */
function geminiStop(reason: string, calls: boolean): RoundStop {
  if (reason === 'STOP') return roundStop(calls ? 'tool_use' : 'end_turn', 'finishReason', reason);
  if (reason === 'MAX_TOKENS') return roundStop('max_tokens', 'finishReason', reason);
  const common = FILTERS.has(reason) ? 'content_filter' : 'other';
  return roundStop(common, 'finishReason', reason, STOP_REASONS[reason]);
}

function toUsage(raw: NonNullable<GenerateContentResponse['usageMetadata']>): Usage | undefined {
  if (raw.promptTokenCount === undefined && raw.totalTokenCount === undefined) return undefined;
  const prompt = (raw.promptTokenCount ?? 0) + (raw.toolUsePromptTokenCount ?? 0);
  const completion = (raw.candidatesTokenCount ?? 0) + (raw.thoughtsTokenCount ?? 0);
  const usage: Usage = {
    inputTokens: prompt,
    outputTokens: completion,
    totalTokens: raw.totalTokenCount ?? prompt + completion,
  };
  if (raw.cachedContentTokenCount !== undefined) usage.cachedInputTokens = raw.cachedContentTokenCount;
  return usage;
}

/** Runs a delta callback (an empty delta is no delta); what it throws is ours. */
function deliver(callback: ((delta: string) => void) | undefined, delta: string): void {
  if (delta !== '') deliverDelta(callback, delta);
}
