/**
 * Interceptors around one tool call: the seam where extensions (the lifecycle hooks of src/hooks/
 * among them) take part in the executor's call pipeline. `before` may deny a call, force its
 * question or let an asked call through; `after` may add a note to the result the model reads;
 * `asking` hears that a question is about to wait for the person. Extensions add them through
 * extensions/host.ts; every executor of a run (sub-agents' too) shares one set. Combined: any deny
 * wins, then any ask, then an allow.
 */
import type { ApprovalRequest } from './approval.js';
import type { Tool, ToolCallOutcome } from './types.js';

export interface ToolCallInfo {
  tool: Tool;
  args: Record<string, unknown>;
  callId?: string;
}

/** What a `before` interceptor says; undefined or no decision: nothing to add. */
export interface BeforeToolCall {
  decision?: 'allow' | 'deny' | 'ask';
  /** Why: a deny's reason is the result the model reads; an ask's is shown above the question. */
  reason?: string;
}

export interface ToolCallInterceptor {
  before?(call: ToolCallInfo, signal: AbortSignal): Promise<BeforeToolCall | undefined>;
  /** Text appended to the result the model reads (undefined: none). */
  after?(call: ToolCallInfo, outcome: ToolCallOutcome, signal: AbortSignal): Promise<string | undefined>;
  asking?(call: ToolCallInfo, request: ApprovalRequest): void;
}

export class ToolCallInterceptors {
  private readonly hooks: ToolCallInterceptor[] = [];

  add(hook: ToolCallInterceptor): void {
    this.hooks.push(hook);
  }

  get empty(): boolean {
    return this.hooks.length === 0;
  }

  async before(call: ToolCallInfo, signal: AbortSignal): Promise<BeforeToolCall | undefined> {
    const answers = await Promise.all(this.hooks.map((hook) => hook.before?.(call, signal)));
    const first = (decision: BeforeToolCall['decision']) =>
      answers.find((answer) => answer?.decision === decision);
    return first('deny') ?? first('ask') ?? first('allow');
  }

  async after(
    call: ToolCallInfo,
    outcome: ToolCallOutcome,
    signal: AbortSignal,
  ): Promise<string | undefined> {
    const notes = await Promise.all(this.hooks.map((hook) => hook.after?.(call, outcome, signal)));
    const text = notes.filter((note): note is string => note !== undefined && note !== '');
    return text.length > 0 ? text.join('\n') : undefined;
  }

  asking(call: ToolCallInfo, request: ApprovalRequest): void {
    for (const hook of this.hooks) hook.asking?.(call, request);
  }
}
