/**
 * How one turn's agent events read on screen: streamed reasoning grows a dimmed block and streamed text a model entry, tool calls show
 * as running until their `[Calling tool …]` line lands, answered questions are recorded, usage
 * updates this turn's token count.
 */
import { type AgentEvent, cachedPercent, describeCompaction } from '../agent/events.js';
import type { Usage } from '../providers/messages.js';
import { formatToolLine } from '../tools/format.js';
import type { TranscriptStore } from './transcript-store.js';
import type { RunningTool } from './types.js';

export class TurnView {
  private readonly running = new Map<string, RunningTool>();
  private roundHadText = false;
  private tokens = 0;
  /** Characters the model streamed this turn (answer and reasoning), for tokens/s before usage arrives. */
  private streamed = 0;
  private outputTokens = 0;
  private usage: Usage | undefined;

  constructor(
    private readonly transcript: TranscriptStore,
    private readonly now: () => number,
  ) {}

  get tools(): RunningTool[] {
    return [...this.running.values()];
  }

  get turnTokens(): number {
    return this.tokens;
  }

  /** Tokens the model produced this turn: its usage once reported, else estimated from the stream (4 chars a token). */
  get producedTokens(): number {
    return Math.max(this.outputTokens, Math.round(this.streamed / 4));
  }

  /** Share of this turn's prompt tokens read from the provider's cache; undefined when not reported. */
  get cachedPercent(): number | undefined {
    return cachedPercent(this.usage);
  }

  /** A new turn: nothing running, the token count starts again. */
  begin(): void {
    this.running.clear();
    this.tokens = 0;
    this.streamed = 0;
    this.outputTokens = 0;
    this.usage = undefined;
    this.roundHadText = false;
  }

  /** The turn ended: its final text is shown if it was not streamed (`finalText` may be empty). */
  finish(finalText: string | undefined): void {
    if (finalText && !this.roundHadText) this.transcript.line('model', finalText);
    this.running.clear();
    this.transcript.endStream(this.now());
  }

  apply(event: AgentEvent): void {
    switch (event.type) {
      case 'waiting':
      case 'notice':
        this.transcript.line('system', event.message);
        return;
      case 'round_start':
        this.roundHadText = false;
        this.transcript.endStream(this.now());
        return;
      case 'reasoning':
        this.streamed += event.delta.length;
        this.transcript.reasoningText(event.delta, this.now());
        return;
      case 'text':
        this.roundHadText = true;
        this.streamed += event.delta.length;
        this.transcript.modelText(event.delta, this.now());
        return;
      case 'tool_start':
        this.transcript.endStream(this.now());
        this.running.set(event.callId, { callId: event.callId, name: event.name, startedAt: this.now() });
        return;
      case 'tool_progress': {
        const tool = this.running.get(event.callId);
        if (tool) this.running.set(event.callId, { ...tool, progress: event.progress });
        return;
      }
      case 'approval':
        this.transcript.question(event.request, event.answer);
        return;
      case 'tool_end':
        this.running.delete(event.callId);
        // formatToolLine flattens and shortens the result: the full text went to the model.
        this.transcript.line('tool', formatToolLine(event.outcome.name, event.outcome.output));
        return;
      case 'usage':
        this.tokens = event.turn.totalTokens;
        this.outputTokens = event.turn.outputTokens;
        this.usage = event.turn;
        return;
      case 'compacted':
        this.transcript.endStream(this.now());
        this.transcript.line('system', describeCompaction(event.report));
        return;
    }
  }
}
