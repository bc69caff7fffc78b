/**
 * stream-json's partial messages (`--include-partial-messages`): one model reply as the Anthropic
 * Messages stream Claude Code passes on — `message_start`, for each content block
 * `content_block_start`, its deltas (`text_delta`, `thinking_delta`, the tool call's arguments as
 * one `input_json_delta`) and `content_block_stop`, then `message_delta` (stop reason, usage) and
 * `message_stop`. Text and thinking stream as they come; a tool call's block is written when the
 * reply is complete (the providers hand calls over whole). Knows nothing of lines: `write` puts
 * each event in its `stream_event` line.
 */
import { randomBytes } from 'node:crypto';
import type { Usage } from '../providers/messages.js';
import type { ToolCall } from '../tools/types.js';

/** An id in the Messages API's form, one per model reply. */
export function newMessageId(): string {
  return `msg_${randomBytes(12).toString('hex')}`;
}

/** A reply's usage in the Messages API's names (input without the cache reads, as Anthropic counts). */
export function messageUsage(usage: Usage | undefined): Record<string, number> {
  const cached = usage?.cachedInputTokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage?.inputTokens ?? 0) - cached),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
    output_tokens: usage?.outputTokens ?? 0,
  };
}

export class PartialMessages {
  private index = -1;
  private open: 'text' | 'thinking' | undefined;
  private started = false;
  private id = '';
  private model = '';

  constructor(private readonly write: (event: Record<string, unknown>) => void) {}

  /** A request goes out: the next reply is this id's (its `message_start` waits for its first part). */
  start(id: string, model: string): void {
    this.id = id;
    this.model = model;
    this.index = -1;
    this.open = undefined;
    this.started = false;
  }

  text(delta: string): void {
    this.delta('text', { type: 'text_delta', text: delta });
  }

  thinking(delta: string): void {
    this.delta('thinking', { type: 'thinking_delta', thinking: delta });
  }

  /** The reply is complete: the open block ends, each tool call is a block of its own. */
  blocks(calls: readonly ToolCall[]): void {
    this.begin();
    this.close();
    for (const call of calls) {
      const index = ++this.index;
      this.write({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      });
      this.write({
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: call.arguments },
      });
      this.write({ type: 'content_block_stop', index });
    }
  }

  /** Why the reply ended and what it used: `message_delta`, then `message_stop`. */
  end(stopReason: string, usage: Usage | undefined): void {
    this.begin();
    this.close();
    this.write({
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: messageUsage(usage),
    });
    this.write({ type: 'message_stop' });
    this.started = false;
  }

  private delta(kind: 'text' | 'thinking', delta: Record<string, unknown>): void {
    this.begin();
    if (this.open !== kind) {
      this.close();
      this.open = kind;
      this.write({
        type: 'content_block_start',
        index: ++this.index,
        content_block:
          kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' },
      });
    }
    this.write({ type: 'content_block_delta', index: this.index, delta });
  }

  private begin(): void {
    if (this.started) return;
    this.started = true;
    this.write({
      type: 'message_start',
      message: {
        id: this.id,
        type: 'message',
        role: 'assistant',
        model: this.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: messageUsage(undefined),
      },
    });
  }

  private close(): void {
    if (this.open === undefined) return;
    this.open = undefined;
    this.write({ type: 'content_block_stop', index: this.index });
  }
}
