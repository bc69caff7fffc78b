/**
 * Reads one streamed Chat Completions reply into a ChatRound (text and reasoning deltas, tool-call fragments
 * reassembled by index, usage) and maps SDK failures to ProviderError or a plain AbortError.
 */
import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ToolCall } from '../../tools/types.js';
import { CallbackFailure, cancelledError, deliver, rootMessage, streamFailure } from '../shared/errors.js';
import { type RoundStop, roundStop } from '../stop-reason.js';
import { type ChatRound, ProviderError, type Usage } from '../types.js';
import { upstreamReason } from '../upstream-reason.js';

interface PartialCall {
  id: string | undefined;
  name: string;
  arguments: string;
}

export async function readRound(
  stream: AsyncIterable<ChatCompletionChunk>,
  onText: ((delta: string) => void) | undefined,
  onReasoning?: (delta: string) => void,
  signal?: AbortSignal,
): Promise<ChatRound> {
  let text = '';
  let reasoning = '';
  let usage: Usage | undefined;
  let finishReason: string | null = null;
  let refused = false;
  const calls = new Map<number, PartialCall>();
  let lastIndex = 0;

  for await (const chunk of stream) {
    // The SDK yields every event of a read before it notices an abort: a fast stream buffers
    // thousands, so a cancel is checked here (the caller turns it into an AbortError).
    if (signal?.aborted) break;
    if (chunk.usage) usage = toUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta;
    const thought = (delta as { reasoning_content?: unknown } | undefined)?.reasoning_content;
    if (typeof thought === 'string' && thought !== '') {
      reasoning += thought;
      deliver(onReasoning, thought);
    }
    if (typeof delta?.content === 'string' && delta.content !== '') {
      text += delta.content;
      deliver(onText, delta.content);
    }
    // A refusal streams on its own field (OpenAI): it is the model's answer to the person.
    const refusal = (delta as { refusal?: unknown } | undefined)?.refusal;
    if (typeof refusal === 'string' && refusal !== '') {
      refused = true;
      text += refusal;
      deliver(onText, refusal);
    }
    for (const fragment of delta?.tool_calls ?? []) {
      // A few servers leave out `index`; a fresh id then means a new call, anything else continues.
      const index =
        typeof fragment.index === 'number'
          ? fragment.index
          : fragment.id && ![...calls.values()].some((c) => c.id === fragment.id)
            ? calls.size
            : lastIndex;
      lastIndex = index;
      const call = calls.get(index) ?? { id: undefined, name: '', arguments: '' };
      if (fragment.id) call.id = fragment.id;
      if (fragment.function?.name) call.name += fragment.function.name;
      if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
      calls.set(index, call);
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }

  const toolCalls: ToolCall[] = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, call]) => ({ id: call.id ?? `call_${index}`, name: call.name, arguments: call.arguments }));
  const stop = finishReason === null ? null : chatStop(finishReason, toolCalls.length > 0, refused);
  return { text, reasoning, toolCalls, usage, stop };
}

/**
 * Chat Completions' `finish_reason` in the common words. Compatible servers' own names for a
 * normal end (`eos`, `end_turn`) and for the length limit (Mistral's `model_length`) count as
 * such; anything else (DeepSeek's `insufficient_system_resource`, OpenRouter's `error`) is `other`.
 */
function chatStop(reason: string, calls: boolean, refused: boolean): RoundStop {
  const stop = (common: Parameters<typeof roundStop>[0]) => roundStop(common, 'finish_reason', reason);
  switch (reason) {
    case 'stop':
    case 'eos':
    case 'end_turn':
    case 'stop_sequence':
      if (refused) return stop('refusal');
      return stop(calls ? 'tool_use' : 'end_turn');
    case 'tool_calls':
    case 'function_call':
      return stop('tool_use');
    case 'length':
    case 'model_length':
      return stop('max_tokens');
    case 'content_filter':
      return stop('content_filter');
    default:
      return stop('other');
  }
}

/**
 * What a failed request surfaces as: AbortError for a user cancel, ProviderError otherwise.
 * `keyVariable`: where the key came from, named when the server refuses it (HTTP 401).
 */
export function mapFailure(
  error: unknown,
  signal: AbortSignal,
  baseURL: string,
  keyVariable?: string,
): unknown {
  if (error instanceof CallbackFailure) return error.error;
  if (signal.aborted || error instanceof APIUserAbortError) return cancelledError();
  if (error instanceof ProviderError) return error;
  if (error instanceof APIConnectionError) {
    return new ProviderError(`model request failed: cannot reach ${baseURL}: ${rootMessage(error)}`);
  }
  if (error instanceof APIError) {
    if (typeof error.status === 'number') {
      const text = serverMessage(error, error.status);
      // A proxy or a wrong base URL answers with a web page: its markup says nothing useful.
      const message = text.trimStart().startsWith('<')
        ? `the server answered with an HTML page, not the API — check OPENAI_BASE_URL (${baseURL})`
        : text;
      const hint = error.status === 401 && keyVariable ? ` — check ${keyVariable}` : '';
      return new ProviderError(`model request failed: HTTP ${error.status}: ${message}${hint}`, error.status);
    }
    // An `error` object sent inside the stream: there is no status, only the server's words and
    // code (openai 7 also throws a Responses `error` event this way, which named its code before).
    const code = typeof error.code === 'string' && error.code !== '' ? ` (${error.code})` : '';
    return new ProviderError(`model request failed: ${serverMessage(error, undefined)}${code}`);
  }
  return streamFailure(error);
}

function serverMessage(error: APIError, status: number | undefined): string {
  const body = error.error;
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
    // A router's generic message ("Provider returned error") with the upstream's own reason.
    return `${body.message}${upstreamReason(body)}`;
  }
  const prefix = status === undefined ? '' : `${status} `;
  return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
}

function toUsage(raw: NonNullable<ChatCompletionChunk['usage']>): Usage {
  const prompt = raw.prompt_tokens ?? 0;
  const completion = raw.completion_tokens ?? 0;
  const usage: Usage = {
    inputTokens: prompt,
    outputTokens: completion,
    totalTokens: raw.total_tokens ?? prompt + completion,
  };
  // OpenAI puts prompt-cache hits in the details; DeepSeek (the default endpoint) in its own field.
  const cached =
    raw.prompt_tokens_details?.cached_tokens ??
    (raw as { prompt_cache_hit_tokens?: unknown }).prompt_cache_hit_tokens;
  if (typeof cached === 'number' && Number.isFinite(cached) && cached >= 0) usage.cachedInputTokens = cached;
  return usage;
}
