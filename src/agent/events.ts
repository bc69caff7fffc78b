/**
 * What one user turn reports while it runs. Faces (print mode, the TUI) render these; the agent
 * never writes to the terminal itself.
 */
import type { Usage } from '../providers/messages.js';
import type { RoundStop } from '../providers/stop-reason.js';
import type { ApprovalAnswer, ApprovalRequest } from '../tools/approval.js';
import type { ToolCall, ToolCallOutcome, ToolDecision, ToolProgress } from '../tools/types.js';

/** What a compaction did, for the transcript line and the panel. */
export interface CompactionReport {
  /** Why it ran: the threshold before a request, the provider's overflow answer, or /compact. */
  trigger: 'auto' | 'overflow' | 'manual';
  /** How the old part went: summarised by the model, only tool outputs pruned, or dropped. */
  method: 'summary' | 'pruned' | 'dropped';
  /** Messages that were replaced. */
  messages: number;
  beforeTokens: number;
  afterTokens: number;
}

export type AgentEvent =
  | { type: 'waiting'; message: string }
  | { type: 'notice'; message: string }
  | { type: 'round_start'; round: number }
  | { type: 'text'; delta: string }
  /** The model's reasoning (`reasoning_content`), streamed for display; never sent back by a face. */
  | { type: 'reasoning'; delta: string }
  /** The model's reply of one round is complete (and in the history): its text and the calls it asks for. */
  | {
      type: 'round_end';
      round: number;
      text: string;
      reasoning: string;
      toolCalls: ToolCall[];
      /** Why the reply ended, when the provider said (stream-json's stop_reason). */
      stop?: RoundStop;
    }
  | { type: 'tool_start'; callId: string; name: string; arguments: string }
  /** The permission layer let the call run (allow, approved) or not (deny, refused); once per call. */
  | { type: 'tool_decision'; callId: string; name: string; decision: ToolDecision }
  | { type: 'tool_progress'; callId: string; name: string; progress: ToolProgress }
  | { type: 'approval'; callId: string; request: ApprovalRequest; answer: ApprovalAnswer }
  | { type: 'tool_end'; callId: string; outcome: ToolCallOutcome; elapsedMs: number }
  | { type: 'usage'; round: Usage; turn: Usage; total: Usage }
  | { type: 'compacted'; report: CompactionReport };

export type AgentEventListener = (event: AgentEvent) => void;

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
}

export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
  // Unknown stays unknown until some request reports it; then the unknown ones count as none.
  if (a.cachedInputTokens !== undefined || b.cachedInputTokens !== undefined)
    sum.cachedInputTokens = (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0);
  return sum;
}

/** The share of `usage`'s input tokens read from the provider's cache, in whole percent; undefined when not reported. */
export function cachedPercent(usage: Usage | undefined): number | undefined {
  if (usage?.cachedInputTokens === undefined || usage.inputTokens <= 0) return undefined;
  return Math.round((Math.min(usage.cachedInputTokens, usage.inputTokens) / usage.inputTokens) * 100);
}

/** The transcript's line for a compaction: what happened and how much room it made. */
export function describeCompaction(report: CompactionReport): string {
  const how =
    report.method === 'summary'
      ? `${report.messages} earlier messages summarised`
      : report.method === 'pruned'
        ? `old tool outputs pruned in ${report.messages} messages`
        : `${report.messages} oldest messages dropped`;
  const tokens = `${report.beforeTokens.toLocaleString('en-US')} → ${report.afterTokens.toLocaleString('en-US')} tokens`;
  return `context compacted: ${how} (${tokens})`;
}
