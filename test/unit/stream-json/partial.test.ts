/**
 * A reply's stream events for `--include-partial-messages`: message_start comes with the first
 * part (or the end), each kind of streamed text is a block of its own with start, deltas and
 * stop, tool calls are whole blocks at the end, and every reply ends with message_delta (stop
 * reason, usage in the Messages API's names) and message_stop.
 */
import { describe, expect, it } from 'vitest';
import { PartialMessages } from '../../../src/stream-json/partial.js';

function recorder() {
  const events: Array<Record<string, unknown>> = [];
  return { events, partial: new PartialMessages((event) => events.push(event)) };
}

describe('PartialMessages', () => {
  it('streams thinking and text as blocks, then the calls, then the end', () => {
    const { events, partial } = recorder();
    partial.start('msg_1', 'm');
    partial.thinking('a');
    partial.thinking('b');
    partial.text('c');
    partial.blocks([{ id: 'call_1', name: 'ls', arguments: '{"path":"."}' }]);
    partial.end('tool_use', { inputTokens: 10, outputTokens: 3, totalTokens: 13, cachedInputTokens: 4 });
    expect(events).toEqual([
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: 0,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 0,
            output_tokens: 0,
          },
        },
      },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'a' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'b' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'c' } },
      { type: 'content_block_stop', index: 1 },
      {
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'tool_use', id: 'call_1', name: 'ls', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'input_json_delta', partial_json: '{"path":"."}' },
      },
      { type: 'content_block_stop', index: 2 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: {
          input_tokens: 6,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 4,
          output_tokens: 3,
        },
      },
      { type: 'message_stop' },
    ]);
  });

  it('an empty reply still starts and ends; the next reply starts afresh at index 0', () => {
    const { events, partial } = recorder();
    partial.start('msg_1', 'm');
    partial.blocks([]);
    partial.end('end_turn', undefined);
    partial.start('msg_2', 'm');
    partial.text('x');
    partial.blocks([]);
    partial.end('end_turn', undefined);
    expect(events.map((event) => [event.type, event.index ?? ''])).toEqual([
      ['message_start', ''],
      ['message_delta', ''],
      ['message_stop', ''],
      ['message_start', ''],
      ['content_block_start', 0],
      ['content_block_delta', 0],
      ['content_block_stop', 0],
      ['message_delta', ''],
      ['message_stop', ''],
    ]);
  });
});
