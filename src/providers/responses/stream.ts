/**
 * Reads one streamed Responses API reply into a ChatRound: output text and reasoning-summary
 * deltas as they come, function calls reassembled per output item (parallel calls stream side by
 * side, told apart by `output_index`), the reasoning items kept whole for the next request
 * (NativeState) with each message item's share of the text and its `phase`, usage from
 * `response.completed` (or `response.incomplete`). A failed response or an `error` event ends the
 * read with a ProviderError saying what the server said; an incomplete one (`max_output_tokens`,
 * `content_filter`) keeps what arrived, as a cut round.
 */
import type {
  ResponseError,
  ResponseReasoningItem,
  ResponseStreamEvent,
  ResponseUsage,
} from 'openai/resources/responses/responses';
import type { ToolCall } from '../../tools/types.js';
import { deliver } from '../shared/errors.js';
import { type RoundStop, roundStop } from '../stop-reason.js';
import { type ChatRound, ContextOverflowError, ProviderError, type Usage } from '../types.js';
import { type MessageSpan, phaseOf, RESPONSES_KIND, type ResponsesNativeData } from './messages.js';

interface PartialCall {
  callId: string;
  name: string;
  arguments: string;
}

/** Codes that mean the input did not fit the model's context window. */
const OVERFLOW_CODES = new Set(['context_length_exceeded', 'string_above_max_length']);

export async function readResponsesRound(
  stream: AsyncIterable<ResponseStreamEvent>,
  onText: ((delta: string) => void) | undefined,
  onReasoning: ((delta: string) => void) | undefined,
  signal: AbortSignal,
): Promise<ChatRound> {
  let text = '';
  let reasoning = '';
  let usage: Usage | undefined;
  let completed = false;
  let refused = false;
  /** `incomplete_details.reason` of a `response.incomplete`. */
  let incomplete: string | undefined;
  const calls = new Map<number, PartialCall>();
  const reasoningItems = new Map<number, ResponseReasoningItem>();
  const messages = new Map<number, MessageSpan>();
  const addText = (outputIndex: number, delta: string) => {
    text += delta;
    deliver(onText, delta);
    const span = messages.get(outputIndex) ?? { length: 0, phase: null };
    span.length += delta.length;
    messages.set(outputIndex, span);
  };

  for await (const event of stream) {
    // Buffered events keep coming after a cancel; the caller turns it into an AbortError.
    if (signal.aborted) break;
    switch (event.type) {
      case 'response.output_text.delta':
        addText(event.output_index, event.delta);
        break;
      case 'response.refusal.delta':
        // A refusal is the model's answer to the person, streamed on its own event.
        refused = true;
        addText(event.output_index, event.delta);
        break;
      case 'response.reasoning_summary_part.added':
        // Summary parts are paragraphs of one summary.
        if (reasoning !== '') {
          reasoning += '\n\n';
          deliver(onReasoning, '\n\n');
        }
        break;
      case 'response.reasoning_summary_text.delta':
        reasoning += event.delta;
        deliver(onReasoning, event.delta);
        break;
      case 'response.output_item.added':
        if (event.item.type === 'message') notePhase(messages, event.output_index, event.item);
        else if (event.item.type === 'function_call') {
          const { call_id, name, arguments: args } = event.item;
          calls.set(event.output_index, { callId: call_id, name, arguments: args ?? '' });
        }
        break;
      case 'response.function_call_arguments.delta': {
        const call = calls.get(event.output_index);
        if (call) call.arguments += event.delta;
        break;
      }
      case 'response.function_call_arguments.done': {
        // The whole text, authoritative over the deltas.
        const call = calls.get(event.output_index);
        if (call) call.arguments = event.arguments;
        break;
      }
      case 'response.output_item.done':
        if (event.item.type === 'function_call') {
          const { call_id, name, arguments: args } = event.item;
          calls.set(event.output_index, { callId: call_id, name, arguments: args });
        } else if (event.item.type === 'reasoning') {
          reasoningItems.set(event.output_index, event.item);
        } else if (event.item.type === 'message') {
          notePhase(messages, event.output_index, event.item);
        }
        break;
      case 'response.completed':
        usage = event.response.usage ? toUsage(event.response.usage) : undefined;
        completed = true;
        break;
      case 'response.failed':
        throw failure(event.response.error);
      case 'response.incomplete':
        // What arrived stays: the round is cut, and says why.
        usage = event.response.usage ? toUsage(event.response.usage) : undefined;
        incomplete = event.response.incomplete_details?.reason ?? 'no reason given';
        completed = true;
        break;
      case 'error':
        throw failure({ code: event.code, message: event.message });
      default:
        break;
    }
  }

  const toolCalls: ToolCall[] = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, call]) => ({ id: call.callId, name: call.name, arguments: call.arguments }));
  const items = [...reasoningItems.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
  const round: ChatRound = {
    text,
    reasoning,
    toolCalls,
    usage,
    // null: the stream ended without `response.completed` (the caller reports it).
    stop: completed ? responsesStop(incomplete, toolCalls.length > 0, refused) : null,
  };
  const spans = [...messages.entries()].sort(([a], [b]) => a - b).map(([, span]) => span);
  // Spans are kept only when a phase must go back: older models' rounds stay as they were.
  const phased = spans.some((span) => span.phase !== null);
  if (items.length > 0 || phased) {
    const data: ResponsesNativeData = { reasoning: items };
    if (phased) data.messages = spans;
    round.native = { provider: RESPONSES_KIND, data };
  }
  return round;
}

/** Records a message item's phase (from its `added` event, confirmed by its `done` event). */
function notePhase(messages: Map<number, MessageSpan>, outputIndex: number, item: { phase?: unknown }): void {
  const span = messages.get(outputIndex) ?? { length: 0, phase: null };
  span.phase = phaseOf(item) ?? span.phase;
  messages.set(outputIndex, span);
}

/** A finished response's end in the common words: its `incomplete_details.reason`, or how it completed. */
function responsesStop(incomplete: string | undefined, calls: boolean, refused: boolean): RoundStop {
  if (incomplete === undefined) {
    const reason = refused ? 'refusal' : calls ? 'tool_use' : 'end_turn';
    return roundStop(reason, 'status', refused ? 'completed with a refusal' : 'completed');
  }
  const common =
    incomplete === 'max_output_tokens'
      ? 'max_tokens'
      : incomplete === 'content_filter'
        ? 'content_filter'
        : 'other';
  return roundStop(common, 'incomplete_details.reason', incomplete);
}

function failure(error: (Pick<ResponseError, 'message'> & { code: string | null }) | null): ProviderError {
  if (!error) return new ProviderError('model request failed: the response failed without a reason');
  const code = error.code ? ` (${error.code})` : '';
  const message = `model request failed: ${error.message}${code}`;
  return error.code && OVERFLOW_CODES.has(error.code)
    ? new ContextOverflowError(message)
    : new ProviderError(message);
}

function toUsage(raw: ResponseUsage): Usage {
  const usage: Usage = {
    inputTokens: raw.input_tokens,
    outputTokens: raw.output_tokens,
    totalTokens: raw.total_tokens ?? raw.input_tokens + raw.output_tokens,
  };
  const cached = raw.input_tokens_details?.cached_tokens;
  if (typeof cached === 'number') usage.cachedInputTokens = cached;
  return usage;
}
