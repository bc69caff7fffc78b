/**
 * A turn's events as ACP `session/update`s: text and thought chunks, tool calls starting and
 * ending (with the diff of an edit, the editor's terminal of a shell call), and a background
 * shell's call kept in progress until its end is read or it is stopped. The session (session.ts)
 * owns the order updates leave in; this owns what each event becomes.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import type { AgentEvent } from '../agent/events.js';
import type { App } from '../app/create-app.js';
import { approves } from '../permissions/types.js';
import type { EditTracker } from './diffs.js';
import { textChunk, thoughtChunk, toolCallEnd, toolCallStart } from './updates.js';

export type SendUpdate = (update: SessionUpdate | Promise<SessionUpdate | undefined>) => Promise<void>;

export class TurnUpdates {
  /** Call id → the editor's terminal its command ran in. */
  private readonly terminals = new Map<string, string>();
  /** run_shell calls left in progress: their background shell still runs (until read or killed). */
  private readonly runningShells = new Set<string>();

  constructor(
    private readonly app: App,
    private readonly edits: EditTracker,
    private readonly send: SendUpdate,
  ) {}

  /** A command of call `callId` runs in the editor's terminal `terminalId`: the call shows it. */
  terminalOpened(callId: string, terminalId: string): void {
    this.terminals.set(callId, terminalId);
    this.send({
      sessionUpdate: 'tool_call_update',
      toolCallId: callId,
      status: 'in_progress',
      content: [{ type: 'terminal', terminalId }],
    });
  }

  /** A background shell settled: its call, left in progress, completes. */
  shellSettled(callId: string): void {
    if (this.runningShells.delete(callId))
      this.send({ sessionUpdate: 'tool_call_update', toolCallId: callId, status: 'completed' });
  }

  /** One event of a turn, as the update(s) the editor shows. */
  event(event: AgentEvent): void {
    const root = this.app.root;
    switch (event.type) {
      case 'text':
        this.send(textChunk(event.delta));
        return;
      case 'reasoning':
        this.send(thoughtChunk(event.delta));
        return;
      case 'waiting':
        this.send(thoughtChunk(`${event.message}\n`));
        return;
      case 'notice':
        this.send(textChunk(`\n${event.message}\n`));
        return;
      case 'tool_start':
        this.edits.start(event.callId, event.name, event.arguments);
        this.send(toolCallStart(event.callId, event.name, event.arguments, root));
        return;
      case 'approval':
        if (approves(event.answer))
          this.send({ sessionUpdate: 'tool_call_update', toolCallId: event.callId, status: 'in_progress' });
        return;
      case 'tool_progress':
        if (event.progress.message)
          this.send({
            sessionUpdate: 'tool_call_update',
            toolCallId: event.callId,
            status: 'in_progress',
            content: [{ type: 'content', content: { type: 'text', text: event.progress.message } }],
          });
        return;
      case 'tool_end': {
        const terminal = this.terminals.get(event.callId);
        this.terminals.delete(event.callId);
        this.send(
          this.edits.end(event.callId, event.outcome).then((diff) => {
            const update = toolCallEnd(event.callId, event.outcome, diff);
            if (terminal && update.sessionUpdate === 'tool_call_update')
              update.content = [{ type: 'terminal', terminalId: terminal }, ...(update.content ?? [])];
            // A background shell's call stays in progress until its end is read or it is stopped.
            if (
              update.sessionUpdate === 'tool_call_update' &&
              this.app.backgroundShells.inProgress(event.callId)
            ) {
              this.runningShells.add(event.callId);
              update.status = 'in_progress';
            }
            return update;
          }),
        );
        return;
      }
      case 'compacted':
        this.send(thoughtChunk('(context compacted)\n'));
        return;
      case 'round_start':
      case 'usage':
        return;
    }
  }
}
