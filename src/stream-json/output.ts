/**
 * stream-json output: `JsonLines` writes one JSON object a line and knows when the reader is behind
 * (the turn waits on `pace()` rather than queue output without bound); `StreamJsonEvents` maps the
 * agent's events to Claude Code's stream-json messages: `system`/`init`, an `assistant` message
 * per model reply (text, thinking and `tool_use` blocks), a `user` message per tool result (a
 * `tool_result` block answering its `tool_use` id, and `tool_use_result`), `tool_progress`, and
 * with `--include-partial-messages` the reply's whole `stream_event` sequence
 * (partial.ts). Each line has a `uuid` and the `session_id`; messages have
 * `parent_tool_use_id`. GeekAgent's own facts (the permission decision, the MCP server, the time a
 * call took) ride along as extra fields. Untrusted text is only ever inside JSON strings, escaped
 * (jsonLine).
 */
import { randomUUID } from 'node:crypto';
import type { AgentEvent } from '../agent/events.js';
import type { App } from '../app/create-app.js';
import { PACKAGE_VERSION } from '../config/version.js';
import type { ServerState } from '../mcp/status.js';
import { CLAUDE_MODE_NAMES } from '../permissions/approval-mode.js';
import type { Usage } from '../providers/messages.js';
import { outputToText, type ToolDecision, type ToolOutput } from '../tools/types.js';
import { messageUsage, newMessageId, PartialMessages } from './partial.js';
import { parsedOrRaw } from './result.js';

/**
 * One object as one line. JSON.stringify escapes C0 controls; DEL, C1 controls, the line and
 * paragraph separators and the bidi/invisible formatting characters are escaped too, so a line a
 * program prints as it is cannot move a terminal's cursor or reorder what it shows.
 */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value).replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

const UNSAFE = /[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/**
 * Where stream-json messages go: stdout's lines (JsonLines) or the library's message queue. When the
 * reader is behind, `pace()` says how long to wait; `flushed()` once everything has reached it.
 */
export interface MessageSink {
  write(value: unknown): void;
  pace(): Promise<void> | undefined;
  flushed(): Promise<void>;
}

/** Lines on a stream; when it is full (the reader is behind), `pace()` says how long to wait. */
export class JsonLines implements MessageSink {
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

/** The first line: what this run is (after the start-up grace: servers still starting are `pending`). */
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
    slash_commands: app.extensions.commands.list().map((command) => command.name),
    approval_mode: app.approvalMode.current,
    geekagent_version: PACKAGE_VERSION,
    uuid: randomUUID(),
    ...extra,
  };
}

/** Maps one turn's events to lines. */
export class StreamJsonEvents {
  /** The reply being streamed: its message id and usage (the usage event comes before round_end). */
  private messageId = newMessageId();
  private usage: Usage | undefined;
  /** Arguments and the permission decision of calls that started, for their result's line. */
  private readonly calls = new Map<
    string,
    { arguments: string; startedAt: number; decision?: ToolDecision }
  >();
  private readonly partial: PartialMessages | undefined;

  constructor(
    private readonly app: App,
    private readonly lines: MessageSink,
    options: { partial?: boolean } = {},
    /** run_shell calls whose background shell is not settled yet: shared by every turn of a run. */
    private readonly backgroundCalls = new Set<string>(),
  ) {
    if (options.partial)
      this.partial = new PartialMessages((event) =>
        this.lines.write({ type: 'stream_event', event, ...this.common() }),
      );
  }

  /** The fields every message line carries (a fresh uuid each). */
  private common(): Record<string, unknown> {
    return { parent_tool_use_id: null, session_id: this.app.sessions.currentId, uuid: randomUUID() };
  }

  event(event: AgentEvent): void {
    switch (event.type) {
      case 'round_start':
        this.messageId = newMessageId();
        this.usage = undefined;
        this.partial?.start(this.messageId, this.app.provider.model);
        return;
      case 'text':
        this.partial?.text(event.delta);
        return;
      case 'reasoning':
        this.partial?.thinking(event.delta);
        return;
      case 'usage':
        this.usage = event.round;
        return;
      case 'round_end':
        this.roundEnd(event);
        return;
      case 'tool_start':
        this.calls.set(event.callId, { arguments: event.arguments, startedAt: Date.now() });
        return;
      case 'tool_decision': {
        const call = this.calls.get(event.callId);
        if (call) call.decision = event.decision;
        return;
      }
      case 'tool_progress': {
        const started = this.calls.get(event.callId)?.startedAt;
        this.lines.write({
          type: 'tool_progress',
          tool_use_id: event.callId,
          tool_name: event.name,
          elapsed_time_seconds: started === undefined ? 0 : (Date.now() - started) / 1000,
          progress: event.progress.progress,
          ...(event.progress.total !== undefined ? { total: event.progress.total } : {}),
          ...(event.progress.message !== undefined ? { message: event.progress.message } : {}),
          ...this.common(),
        });
        return;
      }
      case 'tool_end':
        this.toolEnd(event);
        return;
      case 'waiting':
      case 'notice':
        this.lines.write({ type: 'system', subtype: event.type, message: event.message, ...this.common() });
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
          ...this.common(),
        });
        return;
      default:
        // approval: the control lines (or the decision on the result's line) say it.
        return;
    }
  }

  /** The reply as one `assistant` message (after its blocks' stream events, before its end's). */
  private roundEnd(event: Extract<AgentEvent, { type: 'round_end' }>): void {
    const content = [
      ...(event.reasoning !== '' ? [{ type: 'thinking', thinking: event.reasoning, signature: '' }] : []),
      ...(event.text !== '' ? [{ type: 'text', text: event.text }] : []),
      ...event.toolCalls.map((call) => ({
        type: 'tool_use',
        id: call.id,
        name: call.name,
        input: parsedOrRaw(call.arguments),
      })),
    ];
    const stopReason = event.stop?.reason ?? (event.toolCalls.length > 0 ? 'tool_use' : 'end_turn');
    this.partial?.blocks(event.toolCalls);
    this.lines.write({
      type: 'assistant',
      message: {
        id: this.messageId,
        type: 'message',
        role: 'assistant',
        model: this.app.provider.model,
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage: messageUsage(this.usage),
      },
      ...this.common(),
    });
    this.partial?.end(stopReason, this.usage);
  }

  /** A `user` message with the call's `tool_result` block, as Claude Code writes one per result. */
  private toolEnd(event: Extract<AgentEvent, { type: 'tool_end' }>): void {
    const call = this.calls.get(event.callId);
    this.calls.delete(event.callId);
    const { outcome } = event;
    const text = outputToText(outcome.output);
    const origin = this.app.registry.get(outcome.name)?.origin;
    // A background shell's call stays in progress until a `tool_status` line completes it.
    const running = this.app.backgroundShells.inProgress(event.callId);
    if (running) this.backgroundCalls.add(event.callId);
    this.lines.write({
      type: 'user',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: event.callId,
            content: resultContent(outcome.output),
            is_error: outcome.isError,
          },
        ],
      },
      tool_use_result: outcome.isError ? `Error: ${text}` : text,
      // GeekAgent's own facts about the call.
      tool_name: outcome.name,
      decision: call?.decision ?? outcome.decision,
      ...(origin?.kind === 'mcp' ? { mcp_server: origin.server } : {}),
      duration_ms: event.elapsedMs,
      ...(running ? { status: 'in_progress' } : {}),
      ...this.common(),
    });
    // The todo list as it is now, for a runner that shows progress.
    if (outcome.name === 'todo_write' && !outcome.isError) {
      const todos = this.app.conversation.state('todos');
      this.lines.write({
        type: 'system',
        subtype: 'todos',
        todos: Array.isArray(todos) ? todos : [],
        session_id: this.app.sessions.currentId,
        uuid: randomUUID(),
      });
    }
  }
}

/** A tool's output as a tool_result's content: its text, or text and image blocks. */
function resultContent(output: ToolOutput): unknown {
  if (typeof output === 'string' || output.every((part) => part.type === 'text')) return outputToText(output);
  return output.map((part) =>
    part.type === 'image'
      ? { type: 'image', source: { type: 'base64', media_type: part.mimeType, data: part.data } }
      : { type: 'text', text: part.type === 'text' ? part.text : outputToText([part]) },
  );
}
