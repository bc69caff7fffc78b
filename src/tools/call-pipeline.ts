/**
 * One tool call's way through the executor, as named steps run in order. Each step settles the
 * call (returns its outcome) or hands it on (returns undefined); it answers at once or as a
 * promise, and the executor waits only for a promise, so a call with nothing to wait for (an
 * allowed MCP tool, no interceptors) goes from its verdict to its run without a pause per step
 * (bench row 4).
 *
 *   findTool       the tool, waiting for a server still starting; unknown → deny
 *   checkVisible   hidden from the model (an active skill's whitelist) → deny
 *   decideVerdict  decideCall, once: rules → approval mode → arguments → interceptors' word →
 *                  the tool's own checks; a stop settles the call
 *   askApproval    an ask: the person's answer, one question at a time; "always"/"never" saved
 *   runTool        the tool, raced against the turn's cancel; the interceptors' notes appended
 *
 * Every outcome is redacted as it is made (CallRun.settle); the decision is reported once.
 */
import { errorMessage } from '../util/errors.js';
import { raceAbort } from '../util/race-abort.js';
import type {
  ApprovalAnswer,
  ApprovalRequest,
  Approver,
  ModeGate,
  PolicyLookup,
  PolicyVerdict,
} from './approval.js';
import type { BeforeToolCall, ToolCallInfo, ToolCallInterceptors } from './call-interceptors.js';
import {
  andThen,
  type CallChecks,
  type CallFacts,
  type CallGather,
  decideCall,
  type FinalVerdict,
  type Settle,
} from './decide.js';
import type { ToolRegistry } from './registry.js';
import {
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
  /** The extensions' interceptors around each call (the lifecycle hooks among them); none when left out. */
  interceptors?: ToolCallInterceptors;
}

/** What the caller hears of one call while it goes through. */
export interface CallListeners {
  onProgress?: (progress: ToolProgress) => void;
  /** Told of each question and its answer, so faces can record `→ y`. */
  onApproval?: (request: ApprovalRequest, answer: ApprovalAnswer) => void;
  /** Something the person should know that is not the tool's result. */
  onNotice?: (message: string) => void;
  /** How the permission layer settled the call: before it runs, or with its refusal. Once per call. */
  onDecision?: (decision: ToolDecision) => void;
}

/** How the executor asks the person: one question at a time, across the calls of a turn. */
export type AskInTurn = (run: CallRun, verdict: AskVerdict) => Promise<ApprovalAnswer>;

export type AskVerdict = Extract<FinalVerdict, { kind: 'ask' }>;

/**
 * What the steps share about one call; each fills in what it learns. It is also the verdict's
 * gather (decide.ts): the interceptors' word and the tool's checks come from it. A class, not a
 * literal with closures: one allocation per call on the hot path (bench row 4).
 */
export class CallRun implements CallGather {
  tool: Tool | undefined = undefined;
  args: Record<string, unknown> | undefined = undefined;
  ctx: ToolContext | undefined = undefined;
  verdict: FinalVerdict | undefined = undefined;
  decision: ToolDecision = 'allow';
  /** The turn was cancelled by the time the interceptors had answered (or found to be none). */
  cancelledAtInterceptors = false;
  private reported = false;

  constructor(
    readonly call: ToolCall,
    readonly signal: AbortSignal,
    readonly deps: ExecutorDeps,
    readonly listeners: CallListeners,
    /** The interceptors, when there are any. */
    readonly interceptors: ToolCallInterceptors | undefined,
    /** The person's answer to the verdict's ask. */
    readonly ask: AskInTurn,
  ) {}

  /** Reports the decision (once: before the tool runs, or with the outcome that ends the call). */
  decided(decision: ToolDecision): void {
    if (this.reported) return;
    this.reported = true;
    this.listeners.onDecision?.(decision);
  }

  /** The outcome: redacted, the decision reported. */
  settle(decision: ToolDecision, output: ToolOutput, isError: boolean): ToolCallOutcome {
    this.decided(decision);
    const { call } = this;
    return {
      name: call.name,
      arguments: call.arguments,
      decision,
      output: redacted(this.deps.redact, output),
      isError,
    };
  }

  /** What the interceptors said before the call; one that fails says nothing (the policy alone). */
  interceptorsSay(): Settle<BeforeToolCall | null> {
    const { interceptors, signal } = this;
    if (!interceptors) {
      this.cancelledAtInterceptors = signal.aborted;
      return null;
    }
    return interceptors
      .before(this.info(), signal)
      .catch(() => undefined)
      .then((said) => {
        this.cancelledAtInterceptors = signal.aborted;
        return said ?? null;
      });
  }

  /** The tool's own checks of the call (protected paths, its reason, a confined run); none to make: at once. */
  checks(sandbox: boolean): Settle<CallChecks> {
    const tool = this.tool!;
    const ctx = this.context();
    if (!hasChecks(tool)) return NO_CHECKS;
    return madeChecks(tool, this.args!, ctx, sandbox);
  }

  info(): ToolCallInfo {
    return { tool: this.tool!, args: this.args!, callId: this.call.id };
  }

  /** The tool's context for this call, made once: its checks and its run share it. */
  context(): ToolContext {
    if (this.ctx) return this.ctx;
    // Object.assign, not `{ ...context, signal, … }`: on Node 20 a spread followed by more
    // properties takes V8's slow path, about 6 µs a call (bench row 4), this about 0.1.
    const ctx: ToolContext = Object.assign({ signal: this.signal }, this.deps.context);
    ctx.onProgress = this.listeners.onProgress;
    ctx.callId = this.call.id;
    ctx.approvedProtected = [];
    this.ctx = ctx;
    return ctx;
  }
}

function redacted(redact: (text: string) => string, output: ToolOutput): ToolOutput {
  if (typeof output === 'string') return redact(output);
  return output.map(
    (part): ContentPart => (part.type === 'text' ? { type: 'text', text: redact(part.text) } : part),
  );
}

export type CallStep = (run: CallRun) => Settle<ToolCallOutcome | undefined>;

/** The steps, in order (as in the header above). */
export const CALL_STEPS: readonly CallStep[] = [findTool, checkVisible, decideVerdict, askApproval, runTool];

async function findTool(run: CallRun): Promise<ToolCallOutcome | undefined> {
  const { call } = run;
  run.tool = await run.deps.registry.arrival(call.name, run.signal);
  if (run.tool) return undefined;
  return run.settle(
    'deny',
    `unknown tool: ${call.name}. Call one of the tools listed in this request.`,
    true,
  );
}

function checkVisible(run: CallRun): ToolCallOutcome | undefined {
  if (run.deps.registry.isVisible(run.tool!)) return undefined;
  return run.settle(
    'deny',
    `tool ${run.call.name} is not available in this conversation now. Call one of the tools listed in this request.`,
    true,
  );
}

function decideVerdict(run: CallRun): Settle<ToolCallOutcome | undefined> {
  return andThen(verdictOf(run.deps.policies, run.call.name), (rules) => {
    if (rules.notice) run.listeners.onNotice?.(rules.notice);
    const tool = run.tool!;
    const parsed = parseArguments(run.call);
    const facts: CallFacts = { toolName: run.call.name, rules };
    if (run.deps.mode) facts.mode = run.deps.mode.judge(tool, rules);
    if (typeof parsed === 'string') facts.argumentsError = parsed;
    else run.args = parsed;
    return andThen(decideCall(facts, run), (final) => {
      // A cancel while the interceptors answered ends the call, whatever they said.
      if (run.cancelledAtInterceptors) return run.settle('refused', 'cancelled before the tool ran', true);
      run.verdict = final;
      return final.kind === 'stop' ? run.settle(final.decision, final.message, true) : undefined;
    });
  });
}

function askApproval(run: CallRun): Settle<ToolCallOutcome | undefined> {
  const final = run.verdict!;
  return final.kind === 'ask' ? asked(run, final) : undefined;
}

async function asked(run: CallRun, final: AskVerdict): Promise<ToolCallOutcome | undefined> {
  const { call, signal, deps } = run;
  let answer: ApprovalAnswer;
  try {
    answer = await run.ask(run, final);
  } catch (error) {
    if (signal.aborted) return run.settle('refused', 'cancelled before the tool ran', true);
    // A tool that cannot describe the call (a patch that does not apply) says why itself.
    if (error instanceof ToolError) return run.settle('refused', error.message, true);
    return run.settle('refused', `could not ask for approval: ${errorMessage(error)}`, true);
  }
  if (answer === 'never') {
    // Saved like "always"; the call is refused whether or not the rule could be written.
    const saved = (deps.policies.denyAlways?.(call.name) ?? Promise.resolve()).catch((error: unknown) => {
      run.listeners.onNotice?.(`could not save "deny" for ${call.name}: ${errorMessage(error)}`);
    });
    await raceAbort(saved, signal).catch(() => undefined);
  }
  if (answer === 'no' || answer === 'never') {
    const guarded = final.protectedPaths;
    const message = deps.approver.refusalMessage(
      call.name,
      final.review,
      guarded.length > 0 ? guarded : undefined,
    );
    return run.settle('refused', message, true);
  }
  if (answer === 'always') {
    // The person said yes; a config file that cannot be written must not turn that into a no.
    const saved = deps.policies.allowAlways(call.name).catch((error: unknown) => {
      run.listeners.onNotice?.(`could not save "allow" for ${call.name}: ${errorMessage(error)}`);
    });
    // Waiting for another agent's lock on the file must not outlast a cancel.
    await raceAbort(saved, signal).catch(() => undefined);
  }
  // What the person saw is what they approved: an MCP tool's definition is pinned.
  await deps.policies.approved?.(call.name).catch((error: unknown) => {
    run.listeners.onNotice?.(`could not pin the definition of ${call.name}: ${errorMessage(error)}`);
  });
  run.decision = 'approved';
  return undefined;
}

async function runTool(call: CallRun): Promise<ToolCallOutcome> {
  const { signal, decision } = call;
  if (signal.aborted) return call.settle(decision, 'cancelled before the tool ran', true);
  call.decided(decision);
  const tool = call.tool!;
  const args = call.args!;
  let done: ToolCallOutcome;
  try {
    // A tool that ends on its own when the signal aborts needs no race (and no listener) for it.
    const running = started(tool, args, call.context());
    const output = await (tool.endsOnAbort ? running : raceAbort(running, signal));
    // Some work returns partial results when aborted instead of throwing: that is still a cancel.
    if (signal.aborted) return call.settle(decision, 'cancelled', true);
    done = call.settle(decision, output, false);
  } catch (error) {
    if (signal.aborted) return call.settle(decision, 'cancelled', true);
    const message = error instanceof ToolError ? error.message : `error: ${errorMessage(error)}`;
    done = call.settle(decision, message, true);
  }
  return call.interceptors ? await annotate(call, call.interceptors, done) : done;
}

/** The interceptors' notes after a call that ran, appended to what the model reads. */
async function annotate(
  run: CallRun,
  interceptors: ToolCallInterceptors,
  done: ToolCallOutcome,
): Promise<ToolCallOutcome> {
  const note = await interceptors.after(run.info(), done, run.signal).catch(() => undefined);
  if (note === undefined || run.signal.aborted) return done;
  const text = run.deps.redact(note);
  const output: ToolOutput =
    typeof done.output === 'string' ? `${done.output}\n\n${text}` : [...done.output, { type: 'text', text }];
  return { ...done, output };
}

async function madeChecks(
  tool: Tool,
  args: Record<string, unknown>,
  ctx: ToolContext,
  sandbox: boolean,
): Promise<CallChecks> {
  const guarded = tool.protectedTargets && ctx.protectedPaths ? await protectedTargets(tool, args, ctx) : [];
  ctx.approvedProtected = guarded;
  const toolReview = tool.askReason ? await askReason(tool, args, ctx) : undefined;
  return {
    protectedPaths: guarded,
    ...(toolReview ? { toolReview } : {}),
    runsUnasked: sandbox && tool.runsUnasked !== undefined && (await runsUnasked(tool, args, ctx)),
  };
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
function started(tool: Tool, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
  try {
    return Promise.resolve(tool.run(args, ctx));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The store's verdict, or just its policy when the lookup has no pins to check. */
function verdictOf(policies: PolicyLookup, toolName: string): Settle<PolicyVerdict> {
  return policies.verdictFor ? policies.verdictFor(toolName) : { policy: policies.policyFor(toolName) };
}

/** A check that fails counts as protected: asking once too often beats a silent write. */
function protectedTargets(tool: Tool, args: Record<string, unknown>, ctx: ToolContext): Promise<string[]> {
  return tool.protectedTargets!(args, ctx).catch((error: unknown) => [
    `(could not be checked: ${errorMessage(error)})`,
  ]);
}

/** A check that fails asks: asking once too often beats a silent write. */
function askReason(tool: Tool, args: Record<string, unknown>, ctx: ToolContext) {
  return tool.askReason!(args, ctx).catch((error: unknown) => ({
    reason: `could not be checked: ${errorMessage(error)}`,
  }));
}

/** A check that fails asks. */
function runsUnasked(tool: Tool, args: Record<string, unknown>, ctx: ToolContext): Promise<boolean> {
  return tool.runsUnasked!(args, ctx).catch(() => false);
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
