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
  ModeGate,
  PolicyLookup,
  PolicyReview,
  PolicyVerdict,
} from './approval.js';
import type { ToolCallHooks, ToolCallInfo } from './call-hooks.js';
import {
  type CallChecks,
  type CallFacts,
  type CallVerdict,
  decideCall,
  type FinalVerdict,
} from './decide.js';
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
  /** The run's approval mode (permissions/approval-mode.ts); none: every call as the rules say. */
  mode?: ModeGate;
  /** Replaces secret values in anything shown to the model or a person. */
  redact: (text: string) => string;
  /** Everything a tool gets except the per-call signal and progress callback. */
  context: Omit<ToolContext, 'signal' | 'onProgress'>;
  /** The extensions' hooks around each call (lifecycle hooks); none when left out. */
  callHooks?: ToolCallHooks;
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

    // A tool of a server still starting is waited for, as a call during its restart is.
    const tool = await this.deps.registry.arrival(call.name, signal);
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
    // Each check is awaited only when it is a promise: a call with nothing to check (an allowed MCP
    // tool, no hooks) goes from its verdict to its run without a pause per check (bench row 4).
    const pendingVerdict = verdictOf(this.deps.policies, call.name);
    const verdict = pendingVerdict instanceof Promise ? await pendingVerdict : pendingVerdict;
    if (verdict.notice) hooks.onNotice?.(verdict.notice);
    // Whether the call is allowed, denied or asked is decideCall's; this method gathers its facts,
    // each only when decideCall needs it. With no hooks and a tool with no checks of its own (an
    // MCP tool) those facts are known at once: one decision, no stage in between (bench row 4).
    const parsed = parseArguments(call);
    const facts: CallFacts = { toolName: call.name, rules: verdict };
    if (this.deps.mode) facts.mode = this.deps.mode.judge(tool, verdict);
    if (typeof parsed === 'string') facts.argumentsError = parsed;
    const callHooks = this.deps.callHooks?.empty === false ? this.deps.callHooks : undefined;
    if (!callHooks) facts.hook = null;
    if (!callHooks && !hasChecks(tool)) facts.checks = NO_CHECKS;
    let ruled = decideCall(facts);
    if (ruled.kind === 'stop') return outcome(ruled.decision, ruled.message, true);
    // decideCall stops on arguments that did not parse (a string), so these did.
    const args = parsed as Record<string, unknown>;

    const info: ToolCallInfo = { tool, args, callId: call.id };
    if (callHooks) {
      // A hook that fails says nothing: the call goes on under the policy alone.
      facts.hook = (await callHooks.before(info, signal).catch(() => undefined)) ?? null;
      ruled = decideCall(facts);
    }
    if (signal.aborted) return outcome('refused', 'cancelled before the tool ran', true);
    if (ruled.kind === 'stop') return outcome(ruled.decision, ruled.message, true);

    // Object.assign, not `{ ...context, signal, … }`: on Node 20 a spread followed by more
    // properties takes V8's slow path, about 6 µs a call (bench row 4), this about 0.1.
    const ctx: ToolContext = Object.assign({ signal }, this.deps.context);
    ctx.onProgress = hooks.onProgress;
    ctx.callId = call.id;
    ctx.approvedProtected = [];
    const final = ruled.kind === 'need' ? await checkedVerdict(tool, args, ctx, facts, ruled) : ruled;
    if (final.kind === 'stop') return outcome(final.decision, final.message, true);
    let decision: ToolDecision = 'allow';
    if (final.kind === 'ask') {
      const { review, protectedPaths } = final;
      let answer: ApprovalAnswer;
      try {
        answer = await this.askInTurn(tool, args, ctx, hooks, review, protectedPaths);
      } catch (error) {
        if (signal.aborted) return outcome('refused', 'cancelled before the tool ran', true);
        // A tool that cannot describe the call (a patch that does not apply) says why itself.
        if (error instanceof ToolError) return outcome('refused', error.message, true);
        return outcome('refused', `could not ask for approval: ${errorMessage(error)}`, true);
      }
      if (answer === 'never') {
        // Saved like "always"; the call is refused whether or not the rule could be written.
        const saved = (this.deps.policies.denyAlways?.(call.name) ?? Promise.resolve()).catch(
          (error: unknown) => {
            hooks.onNotice?.(`could not save "deny" for ${call.name}: ${errorMessage(error)}`);
          },
        );
        await raceAbort(saved, signal).catch(() => undefined);
      }
      if (answer === 'no' || answer === 'never') {
        const message = this.deps.approver.refusalMessage(
          call.name,
          review,
          protectedPaths.length > 0 ? protectedPaths : undefined,
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
    let done: ToolCallOutcome;
    try {
      // A tool that ends on its own when the signal aborts needs no race (and no listener) for it.
      const running = runTool(tool, args, ctx);
      const output = await (tool.endsOnAbort ? running : raceAbort(running, signal));
      // Some work returns partial results when aborted instead of throwing: that is still a cancel.
      if (signal.aborted) return outcome(decision, 'cancelled', true);
      done = outcome(decision, output, false);
    } catch (error) {
      if (signal.aborted) return outcome(decision, 'cancelled', true);
      const message = error instanceof ToolError ? error.message : `error: ${errorMessage(error)}`;
      done = outcome(decision, message, true);
    }
    return callHooks ? await this.afterHooks(callHooks, info, done, signal) : done;
  }

  /** The hooks' notes after a call that ran, appended to what the model reads. */
  private async afterHooks(
    callHooks: ToolCallHooks,
    info: ToolCallInfo,
    done: ToolCallOutcome,
    signal: AbortSignal,
  ): Promise<ToolCallOutcome> {
    const note = await callHooks.after(info, done, signal).catch(() => undefined);
    if (note === undefined || signal.aborted) return done;
    const text = this.deps.redact(note);
    const output: ToolOutput =
      typeof done.output === 'string'
        ? `${done.output}\n\n${text}`
        : [...done.output, { type: 'text', text }];
    return { ...done, output };
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
      this.deps.callHooks?.asking({ tool, args, callId: ctx.callId }, request);
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

/** decideCall once the tool's own checks of the call are made (protected paths, its reason, a confined run). */
async function checkedVerdict(
  tool: Tool,
  args: Record<string, unknown>,
  ctx: ToolContext,
  facts: CallFacts,
  need: Extract<CallVerdict, { kind: 'need' }>,
): Promise<FinalVerdict> {
  const guarded = tool.protectedTargets && ctx.protectedPaths ? await protectedTargets(tool, args, ctx) : [];
  ctx.approvedProtected = guarded;
  const toolReview = tool.askReason ? await askReason(tool, args, ctx) : undefined;
  const sandbox = need.fact === 'checks' && need.sandbox;
  return decideCall({
    ...facts,
    hook: facts.hook ?? null,
    checks: {
      protectedPaths: guarded,
      ...(toolReview ? { toolReview } : {}),
      runsUnasked: sandbox && tool.runsUnasked !== undefined && (await runsUnasked(tool, args, ctx)),
    },
  });
}

/** The facts of a call no check applies to: no protected path, no reason to ask, not confined. */
const NO_CHECKS: CallChecks = Object.freeze({
  protectedPaths: Object.freeze([]) as unknown as string[],
  runsUnasked: false,
});

function hasChecks(tool: Tool): boolean {
  return (
    tool.protectedTargets !== undefined || tool.askReason !== undefined || tool.runsUnasked !== undefined
  );
}

/** A tool's run as a promise; one that throws at once rejects it (the call's error, not the loop's). */
function runTool(tool: Tool, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
  try {
    return Promise.resolve(tool.run(args, ctx));
  } catch (error) {
    return Promise.reject(error);
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
