/**
 * What one user turn reports while it runs. Faces (print mode, the TUI) render these; the agent
 * never writes to the terminal itself.
 */
import type { ApprovalAnswer, ApprovalRequest } from '../permissions/types.js';
import type { Usage } from '../providers/types.js';
import type { ToolCallOutcome, ToolProgress } from '../tools/types.js';

export type AgentEvent =
  | { type: 'waiting'; message: string }
  | { type: 'notice'; message: string }
  | { type: 'round_start'; round: number }
  | { type: 'text'; delta: string }
  | { type: 'tool_start'; callId: string; name: string; arguments: string }
  | { type: 'tool_progress'; callId: string; name: string; progress: ToolProgress }
  | { type: 'approval'; callId: string; request: ApprovalRequest; answer: ApprovalAnswer }
  | { type: 'tool_end'; callId: string; outcome: ToolCallOutcome; elapsedMs: number }
  | { type: 'usage'; round: Usage; turn: Usage; total: Usage };

export type AgentEventListener = (event: AgentEvent) => void;

export function emptyUsage(): Usage {
  return { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    completion_tokens: a.completion_tokens + b.completion_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}
