/**
 * stream-json output: `JsonLines` writes one JSON object a line and knows when the reader is behind
 * (the turn waits on `pace()` rather than queue output without bound); `StreamJsonEvents` maps the
 * agent's events to lines named after Claude Code's stream-json messages where the concepts match
 * (`system`/`init`, `stream_event` deltas, `assistant` messages, `tool_progress`, `result`) plus
 * GeekAgent's `tool_use` (with the permission decision) and `tool_result` lines. Untrusted text is
 * only ever inside JSON strings, escaped (jsonLine).
 */
import type { AgentEvent } from '../agent/events.js';
import type { App } from '../app/create-app.js';
import { PACKAGE_VERSION } from '../config/version.js';
import type { ServerState } from '../mcp/status.js';
import { CLAUDE_MODE_NAMES } from '../permissions/approval-mode.js';
import { outputToText } from '../tools/types.js';
import { parsedOrRaw } from './print-result.js';

/**
 * One object as one line. JSON.stringify escapes C0 controls; DEL, C1 controls, the line and
 * paragraph separators and the bidi/invisible formatting characters are escaped too, so a line a
 * program prints as it is cannot move a terminal's cursor or reorder what it shows.
 */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value).replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

const UNSAFE = /[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** Lines on a stream; when it is full (the reader is behind), `pace()` says how long to wait. */
export class JsonLines {
  private waiting: Promise<void> | undefined;
  private gone = false;

  constructor(private readonly out: NodeJS.WritableStream) {
    // A reader that went away (EPIPE) must not crash the run: the session is written apart.
    out.on('error', () => {
      this.gone = true;
    });
  }

  write(value: unknown): void {
    if (this.gone) return;
    if (this.out.write(jsonLine(value)) || this.waiting) return;
    this.waiting = new Promise<void>((resolve) => {
      const done = () => {
        this.out.off('drain', done);
        this.out.off('close', done);
        this.out.off('error', done);
        this.waiting = undefined;
        resolve();
      };
      this.out.on('drain', done);
      this.out.on('close', done);
      this.out.on('error', done);
    });
  }

  /** Resolves once what was written has gone to the reader; undefined when nothing waits. */
  pace(): Promise<void> | undefined {
    return this.gone ? undefined : this.waiting;
  }

  /** Every line handed to the reader (an exit now would cut the ones still queued). */
  async flushed(): Promise<void> {
    while (!this.gone && this.waiting) await this.waiting;
    const queued = (this.out as { writableLength?: number }).writableLength ?? 0;
    if (this.gone || queued === 0) return;
    await new Promise<void>((resolve) => this.out.write('', () => resolve()));
  }
}

/** Claude Code's server states where they match (`pending`, `needs-auth`), ours otherwise. */
const MCP_STATUS: Record<ServerState['state'], string> = {
  connected: 'connected',
  connecting: 'pending',
  failed: 'failed',
  needs_auth: 'needs-auth',
  idle: 'idle',
  disabled: 'disabled',
};

/** The first line: what this run is (after the MCP servers' start-up settled). */
export function initLine(app: App, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'system',
    subtype: 'init',
    session_id: app.sessions.currentId,
    cwd: app.projectDir,
    model: app.provider.model,
    provider: app.provider.name,
    tools: app.registry.visible().map((tool) => tool.name),
    mcp_servers: app.mcp.statuses().map((server) => ({
      name: server.name,
      status: MCP_STATUS[server.state.state],
    })),
    permissionMode: CLAUDE_MODE_NAMES[app.approvalMode.current],
    approval_mode: app.approvalMode.current,
    geekagent_version: PACKAGE_VERSION,
    ...extra,
  };
}

/** Maps one turn's events to lines. */
export class StreamJsonEvents {
  /** Block index of the round's streamed deltas: a new block when the kind changes. */
  private block = -1;
  private blockKind: 'text' | 'reasoning' | undefined;
  /** Arguments of calls that started, for their `tool_use` line. */
  private readonly calls = new Map<string, string>();

  constructor(
    private readonly app: App,
    private readonly lines: JsonLines,
    /** run_shell calls whose background shell is not settled yet: shared by every turn of a run. */
    private readonly backgroundCalls = new Set<string>(),
  ) {}

  private get common(): Record<string, unknown> {
    return { session_id: this.app.sessions.currentId, parent_tool_use_id: null };
  }

  event(event: AgentEvent): void {
    switch (event.type) {
      case 'round_start':
        this.block = -1;
        this.blockKind = undefined;
        return;
      case 'text':
      case 'reasoning':
        this.delta(event.type, event.delta);
        return;
      case 'round_end': {
        const content = [
          ...(event.reasoning !== '' ? [{ type: 'thinking', thinking: event.reasoning }] : []),
          ...(event.text !== '' ? [{ type: 'text', text: event.text }] : []),
          ...event.toolCalls.map((call) => ({
            type: 'tool_use',
            id: call.id,
            name: call.name,
            input: parsedOrRaw(call.arguments),
          })),
        ];
        this.lines.write({
          type: 'assistant',
          message: { role: 'assistant', model: this.app.provider.model, content },
          ...this.common,
        });
        return;
      }
      case 'tool_start':
        this.calls.set(event.callId, event.arguments);
        return;
      case 'tool_decision':
        this.lines.write({
          type: 'tool_use',
          id: event.callId,
          name: event.name,
          input: parsedOrRaw(this.calls.get(event.callId) ?? ''),
          decision: event.decision,
          ...this.common,
        });
        return;
      case 'tool_progress':
        this.lines.write({
          type: 'tool_progress',
          tool_use_id: event.callId,
          tool_name: event.name,
          progress: event.progress.progress,
          ...(event.progress.total !== undefined ? { total: event.progress.total } : {}),
          ...(event.progress.message !== undefined ? { message: event.progress.message } : {}),
          ...this.common,
        });
        return;
      case 'tool_end':
        this.toolEnd(event);
        return;
      case 'waiting':
      case 'notice':
        this.lines.write({ type: 'system', subtype: event.type, message: event.message, ...this.common });
        return;
      case 'compacted':
        this.lines.write({
          type: 'system',
          subtype: 'compact_boundary',
          compact_metadata: {
            trigger: event.report.trigger,
            method: event.report.method,
            messages: event.report.messages,
            pre_tokens: event.report.beforeTokens,
            post_tokens: event.report.afterTokens,
          },
          ...this.common,
        });
        return;
      default:
        // usage (summed in the result), approval (the control lines or the decision say it).
        return;
    }
  }

  private delta(kind: 'text' | 'reasoning', delta: string): void {
    if (kind !== this.blockKind) {
      this.block++;
      this.blockKind = kind;
    }
    const body =
      kind === 'text' ? { type: 'text_delta', text: delta } : { type: 'thinking_delta', thinking: delta };
    this.lines.write({
      type: 'stream_event',
      event: { type: 'content_block_delta', index: this.block, delta: body },
      ...this.common,
    });
  }

  private toolEnd(event: Extract<AgentEvent, { type: 'tool_end' }>): void {
    this.calls.delete(event.callId);
    const { outcome } = event;
    // A background shell's call stays in progress until a `tool_status` line completes it.
    const running = this.app.backgroundShells.inProgress(event.callId);
    if (running) this.backgroundCalls.add(event.callId);
    this.lines.write({
      type: 'tool_result',
      tool_use_id: event.callId,
      tool_name: outcome.name,
      content: outputToText(outcome.output),
      is_error: outcome.isError,
      decision: outcome.decision,
      duration_ms: event.elapsedMs,
      ...(running ? { status: 'in_progress' } : {}),
      ...this.common,
    });
    // The todo list as it is now, for a runner that shows progress.
    if (outcome.name === 'todo_write' && !outcome.isError) {
      const todos = this.app.conversation.state('todos');
      this.lines.write({
        type: 'system',
        subtype: 'todos',
        todos: Array.isArray(todos) ? todos : [],
        ...this.common,
      });
    }
  }
}
