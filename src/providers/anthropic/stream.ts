/**
 * Reads one streamed Messages reply into a ChatRound: text deltas, thinking deltas (shown as
 * reasoning), thinking and redacted_thinking blocks kept whole with their signatures as this
 * provider's NativeState (they must go back unchanged while the tool loop goes on), tool_use
 * blocks (parallel ones too) with their `input_json_delta` pieces joined, usage with the cache's
 * share, and the stop reason.
 */
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ToolCall } from '../../tools/types.js';
import { deliver } from '../shared/errors.js';
import { type RoundStop, roundStop } from '../stop-reason.js';
import type { ChatRound, Usage } from '../types.js';
import type { ThinkingBlock } from './messages.js';

type Block =
  | { kind: 'text' }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'redacted'; data: string }
  | { kind: 'tool'; id: string; name: string; json: string }
  | { kind: 'other' };

interface InputUsage {
  input: number;
  cacheWrite: number;
  cacheRead: number;
}

export async function readRound(
  stream: AsyncIterable<RawMessageStreamEvent>,
  onText: ((delta: string) => void) | undefined,
  onReasoning: ((delta: string) => void) | undefined,
  signal: AbortSignal,
): Promise<ChatRound> {
  let text = '';
  let reasoning = '';
  let stopReason: string | null = null;
  let stopped = false;
  let output = 0;
  let input: InputUsage | undefined;
  // By index: blocks arrive one after another, but the index is what each delta names.
  const blocks = new Map<number, Block>();

  for await (const event of stream) {
    // The SDK yields every event of a read before it notices an abort.
    if (signal.aborted) break;
    switch (event.type) {
      case 'message_start': {
        const usage = event.message.usage;
        input = {
          input: usage.input_tokens ?? 0,
          cacheWrite: usage.cache_creation_input_tokens ?? 0,
          cacheRead: usage.cache_read_input_tokens ?? 0,
        };
        output = usage.output_tokens ?? 0;
        break;
      }
      case 'content_block_start': {
        const block = event.content_block;
        blocks.set(event.index, startBlock(block as unknown as { type: string } & Record<string, unknown>));
        if (block.type === 'text' && block.text !== '') {
          text += block.text;
          deliver(onText, block.text);
        }
        break;
      }
      case 'content_block_delta': {
        const block = blocks.get(event.index);
        const delta = event.delta;
        if (delta.type === 'text_delta' && delta.text !== '') {
          text += delta.text;
          deliver(onText, delta.text);
        } else if (delta.type === 'thinking_delta' && block?.kind === 'thinking') {
          block.thinking += delta.thinking;
          reasoning += delta.thinking;
          if (delta.thinking !== '') deliver(onReasoning, delta.thinking);
        } else if (delta.type === 'signature_delta' && block?.kind === 'thinking') {
          block.signature += delta.signature;
        } else if (delta.type === 'input_json_delta' && block?.kind === 'tool') {
          block.json += delta.partial_json;
        }
        break;
      }
      case 'message_delta': {
        if (event.delta.stop_reason) stopReason = event.delta.stop_reason;
        const usage = event.usage;
        // Cumulative counts; input ones are repeated here by newer API versions.
        output = usage.output_tokens ?? output;
        if (input && typeof usage.input_tokens === 'number') input.input = usage.input_tokens;
        if (input && typeof usage.cache_creation_input_tokens === 'number')
          input.cacheWrite = usage.cache_creation_input_tokens;
        if (input && typeof usage.cache_read_input_tokens === 'number')
          input.cacheRead = usage.cache_read_input_tokens;
        break;
      }
      case 'message_stop':
        stopped = true;
        break;
    }
  }

  const ordered = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
  const thinking: ThinkingBlock[] = ordered.flatMap((block): ThinkingBlock[] =>
    block.kind === 'thinking'
      ? [{ type: 'thinking', thinking: block.thinking, signature: block.signature }]
      : block.kind === 'redacted'
        ? [{ type: 'redacted_thinking', data: block.data }]
        : [],
  );
  const toolCalls: ToolCall[] = ordered.flatMap((block) =>
    block.kind === 'tool'
      ? [{ id: block.id, name: block.name, arguments: block.json === '' ? '{}' : block.json }]
      : [],
  );
  const round: ChatRound = {
    text,
    reasoning,
    toolCalls,
    usage: input ? toUsage(input, output) : undefined,
    // No message_stop: the connection closed before the reply finished.
    stop: stopped ? anthropicStop(stopReason ?? 'end_turn', toolCalls.length > 0) : null,
  };
  if (thinking.length > 0) round.native = { provider: 'anthropic', data: thinking };
  return round;
}

/** The Messages API's `stop_reason` in the common words. */
function anthropicStop(reason: string, calls: boolean): RoundStop {
  const stop = (common: Parameters<typeof roundStop>[0], explanation?: string) =>
    roundStop(common, 'stop_reason', reason, explanation);
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return stop(calls ? 'tool_use' : 'end_turn');
    case 'tool_use':
      return stop('tool_use');
    case 'max_tokens':
      return stop('max_tokens');
    case 'model_context_window_exceeded':
      return stop('max_tokens', 'the model’s context window is full');
    case 'refusal':
      return stop('refusal');
    default:
      // pause_turn (a server tool's long turn, which GeekAgent never starts) and anything newer.
      return stop('other');
  }
}

function startBlock(block: { type: string } & Record<string, unknown>): Block {
  switch (block.type) {
    case 'text':
      return { kind: 'text' };
    case 'thinking':
      return {
        kind: 'thinking',
        thinking: typeof block.thinking === 'string' ? block.thinking : '',
        signature: typeof block.signature === 'string' ? block.signature : '',
      };
    case 'redacted_thinking':
      return { kind: 'redacted', data: typeof block.data === 'string' ? block.data : '' };
    case 'tool_use':
      return { kind: 'tool', id: String(block.id ?? ''), name: String(block.name ?? ''), json: '' };
    default:
      return { kind: 'other' };
  }
}

/** inputTokens counts every input token, the cache's reads and writes included. */
export function toUsage(input: InputUsage, output: number): Usage {
  const prompt = input.input + input.cacheWrite + input.cacheRead;
  return {
    inputTokens: prompt,
    outputTokens: output,
    totalTokens: prompt + output,
    cachedInputTokens: input.cacheRead,
  };
}
