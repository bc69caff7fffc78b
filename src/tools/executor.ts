/**
 * ToolExecutor: runs one model tool call through the call pipeline (call-pipeline.ts: find →
 * visible → verdict → approval → run) and turns every failure (unknown tool, bad JSON, denial,
 * refusal, exception, cancellation) into a result for the model instead of an exception in the
 * loop. Owns what outlives one call: approval questions are asked one at a time, across the
 * calls of a turn. A cancelled call ends at once, even when the tool ignores its signal: its late
 * result is dropped.
 */
import { raceAbort } from '../util/race-abort.js';
import type { ApprovalAnswer, ApprovalRequest } from './approval.js';
import {
  type AskInTurn,
  type AskVerdict,
  CALL_STEPS,
  type CallListeners,
  CallRun,
  type ExecutorDeps,
} from './call-pipeline.js';
import type { ApprovalPrompt, Tool, ToolCall, ToolCallOutcome } from './types.js';

export type { CallListeners, ExecutorDeps } from './call-pipeline.js';

export class ToolExecutor {
  /** Serialises approval questions: parallel calls queue rather than ask over each other. */
  private approvals: Promise<unknown> = Promise.resolve();
  private readonly ask: AskInTurn = (run, verdict) => this.askInTurn(run, verdict);

  constructor(private readonly deps: ExecutorDeps) {}

  async execute(
    call: ToolCall,
    signal: AbortSignal,
    listeners: CallListeners = {},
  ): Promise<ToolCallOutcome> {
    const interceptors = this.deps.interceptors?.empty === false ? this.deps.interceptors : undefined;
    const run = new CallRun(call, signal, this.deps, listeners, interceptors, this.ask);
    // The steps in order; each is awaited only when it answers with a promise (bench row 4).
    for (let i = 0; i < CALL_STEPS.length; i++) {
      const settled = CALL_STEPS[i]!(run);
      const outcome = settled instanceof Promise ? await settled : settled;
      if (outcome) return outcome;
    }
    // The last step (run) always settles the call.
    throw new Error(`tool call ${call.name} left the pipeline unsettled`);
  }

  private askInTurn(run: CallRun, verdict: AskVerdict): Promise<ApprovalAnswer> {
    const tool = run.tool!;
    const args = run.args!;
    const ctx = run.context();
    const { review, protectedPaths: guarded } = verdict;
    const queued = this.approvals.then(async () => {
      ctx.signal.throwIfAborted();
      const prompt = tool.describeApproval
        ? await tool.describeApproval(args, ctx)
        : genericPrompt(tool, args);
      // Why an allowed tool is asked again comes first, above the call itself.
      const detail = review ? `${review.reason}\n\n${prompt.detail}` : prompt.detail;
      const title =
        guarded.length > 0 ? `${prompt.title} — protected path: ${guarded.join(', ')}` : prompt.title;
      const request: ApprovalRequest = {
        ...prompt,
        title: this.deps.redact(title),
        detail: this.deps.redact(detail),
        toolName: tool.name,
        input: args,
        ...(ctx.callId !== undefined ? { callId: ctx.callId } : {}),
        ...(review ? { review } : {}),
        ...(guarded.length > 0 ? { protectedPaths: guarded } : {}),
      };
      this.deps.interceptors?.asking({ tool, args, callId: ctx.callId }, request);
      const answer = await this.deps.approver.ask(request, ctx.signal);
      run.listeners.onApproval?.(request, answer);
      return answer;
    });
    // A question whose text hangs (a diff of a file that never reads) ends with its turn's cancel,
    // and the next question is not stuck behind it.
    const turn = raceAbort(queued, ctx.signal);
    this.approvals = turn.catch(() => undefined);
    return turn;
  }
}

function genericPrompt(tool: Tool, args: Record<string, unknown>): ApprovalPrompt {
  return {
    title: `About to call tool: ${tool.name}`,
    detail: JSON.stringify(args, null, 2),
    kind: 'generic',
  };
}
