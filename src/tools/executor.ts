/**
 * execTool: runs one model tool call through permissions and the registry, and turns every
 * failure (unknown tool, bad JSON, denial, refusal, exception, cancellation) into a result for the
 * model instead of an exception in the loop. Approval questions are asked one at a time. A
 * cancelled call ends at once, even when the tool ignores its signal: its late result is dropped.
 */
import { errorMessage } from '../util/errors.js';
import { raceAbort } from '../util/race-abort.js';
import type {
  ApprovalAnswer,
  ApprovalRequest,
  Approver,
  PolicyLookup,
  PolicyReview,
  PolicyVerdict,
} from './approval.js';
import type { ToolRegistry } from './registry.js';
import {
  type ApprovalPrompt,
  type ContentPart,
  type Tool,
  type ToolCall,
  type ToolCallOutcome,
  type ToolContext,
  type ToolDecision,
  ToolError,
  type ToolOutput,
  type ToolProgress,
} from './types.js';

export interface ExecutorDeps {
  registry: ToolRegistry;
  policies: PolicyLookup;
  approver: Approver;
  /** Replaces secret values in anything shown to the model or a person. */
  redact: (text: string) => string;
  /** Everything a tool gets except the per-call signal and progress callback. */
  context: Omit<ToolContext, 'signal' | 'onProgress'>;
}

export interface ExecuteHooks {
  onProgress?: (progress: ToolProgress) => void;
  /** Told of each question and its answer, so faces can record `→ y`. */
  onApproval?: (request: ApprovalRequest, answer: ApprovalAnswer) => void;
  /** Something the person should know that is not the tool's result. */
  onNotice?: (message: string) => void;
  /** How the permission layer settled the call: before it runs, or with its refusal. Once per call. */
  onDecision?: (decision: ToolDecision) => void;
}

export class ToolExecutor {
  /** Serialises approval questions: parallel calls queue rather than ask over each other. */
  private approvals: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: ExecutorDeps) {}

  async execute(call: ToolCall, signal: AbortSignal, hooks: ExecuteHooks = {}): Promise<ToolCallOutcome> {
    let decided = false;
    const decide = (decision: ToolDecision) => {
      if (decided) return;
      decided = true;
      hooks.onDecision?.(decision);
    };
    const outcome = (decision: ToolDecision, output: ToolOutput, isError: boolean): ToolCallOutcome => {
      decide(decision);
      return {
        name: call.name,
        arguments: call.arguments,
        decision,
        output: this.redactOutput(output),
        isError,
      };
    };

    const tool = this.deps.registry.get(call.name);
    if (!tool) {
      return outcome(
        'deny',
        `unknown tool: ${call.name}. Call one of the tools listed in this request.`,
        true,
      );
    }
    // Hidden from the model (an active skill's whitelist): naming it anyway does not run it.
    if (!this.deps.registry.isVisible(tool)) {
      return outcome(
        'deny',
        `tool ${call.name} is not available in this conversation now. Call one of the tools listed in this request.`,
        true,
      );
    }
    const verdict = await verdictOf(this.deps.policies, call.name);
    if (verdict.notice) hooks.onNotice?.(verdict.notice);
    const policy = verdict.policy;
    if (policy === 'deny')
      return outcome('deny', `permission denied: tool ${call.name} is not allowed`, true);

    const args = parseArguments(call);
    if (typeof args === 'string') return outcome(policy === 'allow' ? 'allow' : 'refused', args, true);

    const ctx: ToolContext = { ...this.deps.context, signal, onProgress: hooks.onProgress, callId: call.id };
    // Protected paths (.geekagent/, .env, ~/.geekagent) are asked even under `allow`.
    const guarded = await protectedTargets(tool, args, ctx);
    ctx.approvedProtected = guarded;
    // The tool's own reason to ask for this call (asked even under `allow`, like protected paths).
    // Only built-in tools give one, and only MCP tools get pin reviews: the two never meet.
    const asked = await askReason(tool, args, ctx);
    const review = asked ?? verdict.review;
    let decision: ToolDecision = 'allow';
    const mustAsk = guarded.length > 0 || asked !== undefined;
    if (mustAsk || (policy === 'ask' && !(await runsUnasked(tool, args, ctx)))) {
      let answer: ApprovalAnswer;
      try {
        answer = await this.askInTurn(tool, args, ctx, hooks, review, guarded);
      } catch (error) {
        if (signal.aborted) return outcome('refused', 'cancelled before the tool ran', true);
        // A tool that cannot describe the call (a patch that does not apply) says why itself.
        if (error instanceof ToolError) return outcome('refused', error.message, true);
        return outcome('refused', `could not ask for approval: ${errorMessage(error)}`, true);
      }
      if (answer === 'no') {
        const message = this.deps.approver.refusalMessage(
          call.name,
          review,
          guarded.length > 0 ? guarded : undefined,
        );
        return outcome('refused', message, true);
      }
      if (answer === 'always') {
        // The person said yes; a config file that cannot be written must not turn that into a no.
        const saved = this.deps.policies.allowAlways(call.name).catch((error: unknown) => {
          hooks.onNotice?.(`could not save "allow" for ${call.name}: ${errorMessage(error)}`);
        });
        // Waiting for another agent's lock on the file must not outlast a cancel.
        await raceAbort(saved, signal).catch(() => undefined);
      }
      // What the person saw is what they approved: an MCP tool's definition is pinned.
      await this.deps.policies.approved?.(call.name).catch((error: unknown) => {
        hooks.onNotice?.(`could not pin the definition of ${call.name}: ${errorMessage(error)}`);
      });
      decision = 'approved';
    }

    if (signal.aborted) return outcome(decision, 'cancelled before the tool ran', true);
    decide(decision);
    try {
      const output = await raceAbort(
        Promise.resolve().then(() => tool.run(args, ctx)),
        signal,
      );
      // Some work returns partial results when aborted instead of throwing: that is still a cancel.
      if (signal.aborted) return outcome(decision, 'cancelled', true);
      return outcome(decision, output, false);
    } catch (error) {
      if (signal.aborted) return outcome(decision, 'cancelled', true);
      const message = error instanceof ToolError ? error.message : `error: ${errorMessage(error)}`;
      return outcome(decision, message, true);
    }
  }

  private askInTurn(
    tool: Tool,
    args: Record<string, unknown>,
    ctx: ToolContext,
    hooks: ExecuteHooks,
    review: PolicyReview | undefined,
    guarded: string[],
  ): Promise<ApprovalAnswer> {
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
      const answer = await this.deps.approver.ask(request, ctx.signal);
      hooks.onApproval?.(request, answer);
      return answer;
    });
    // A question whose text hangs (a diff of a file that never reads) ends with its turn's cancel,
    // and the next question is not stuck behind it.
    const turn = raceAbort(queued, ctx.signal);
    this.approvals = turn.catch(() => undefined);
    return turn;
  }

  private redactOutput(output: ToolOutput): ToolOutput {
    if (typeof output === 'string') return this.deps.redact(output);
    return output.map(
      (part): ContentPart =>
        part.type === 'text' ? { type: 'text', text: this.deps.redact(part.text) } : part,
    );
  }
}

/** The store's verdict, or just its policy when the lookup has no pins to check. */
function verdictOf(policies: PolicyLookup, toolName: string): Promise<PolicyVerdict> | PolicyVerdict {
  return policies.verdictFor ? policies.verdictFor(toolName) : { policy: policies.policyFor(toolName) };
}

/** A check that fails counts as protected: asking once too often beats a silent write. */
async function protectedTargets(
  tool: Tool,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<string[]> {
  if (!tool.protectedTargets || !ctx.protectedPaths) return [];
  return tool
    .protectedTargets(args, ctx)
    .catch((error: unknown) => [`(could not be checked: ${errorMessage(error)})`]);
}

/** A check that fails asks: asking once too often beats a silent write. */
async function askReason(
  tool: Tool,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<PolicyReview | undefined> {
  if (!tool.askReason) return undefined;
  return tool
    .askReason(args, ctx)
    .catch((error: unknown) => ({ reason: `could not be checked: ${errorMessage(error)}` }));
}

/** A check that fails asks. */
async function runsUnasked(tool: Tool, args: Record<string, unknown>, ctx: ToolContext): Promise<boolean> {
  if (!tool.runsUnasked) return false;
  return tool.runsUnasked(args, ctx).catch(() => false);
}

function genericPrompt(tool: Tool, args: Record<string, unknown>): ApprovalPrompt {
  return {
    title: `About to call tool: ${tool.name}`,
    detail: JSON.stringify(args, null, 2),
    kind: 'generic',
  };
}

/** The arguments as an object, or the error text for the model. */
function parseArguments(call: ToolCall): Record<string, unknown> | string {
  const raw = call.arguments.trim();
  if (raw === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    return `invalid JSON arguments for tool ${call.name}: ${errorMessage(error)}. Send the arguments as one JSON object.`;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return `invalid arguments for tool ${call.name}: expected a JSON object, got ${Array.isArray(parsed) ? 'an array' : typeof parsed}.`;
  }
  return parsed as Record<string, unknown>;
}
