/**
 * The permission decision for one tool call, as one pure function of plain facts: the rules'
 * verdict, the approval mode's word, whether the arguments parsed, the call hooks' word and the
 * tool's own checks (protected paths, its reason to ask, a confined run). The executor gathers
 * the facts in order and calls `decideCall` after each stage; a fact that costs work or has side
 * effects (hooks run commands) is gathered only when `decideCall` says it needs it.
 */
import type { Policy, PolicyReview, PolicyVerdict } from './approval.js';
import type { BeforeToolCall } from './call-hooks.js';

export interface CallFacts {
  toolName: string;
  /** The rules' verdict: the policy, a changed MCP definition to review, whether a person wrote it. */
  rules: Pick<PolicyVerdict, 'policy' | 'review' | 'configured'>;
  /** The approval mode's word (plan refuses; accept-edits and bypass lift an ask); none: the rules'. */
  mode?: { refuse: string } | { policy: Policy };
  /** Why the arguments could not be read (the text the model gets); undefined: they parsed. */
  argumentsError?: string;
  /** The call hooks' combined word; null: they said nothing. Left out: not consulted yet. */
  hook?: BeforeToolCall | null;
  /** The tool's own checks of this call. Left out: not made yet. */
  checks?: CallChecks;
}

export interface CallChecks {
  /** Protected paths the call touches (asked even under `allow`). */
  protectedPaths: string[];
  /** The tool's own reason to ask for this call (asked even under `allow`). */
  toolReview?: PolicyReview;
  /** The tool would run this call unasked under the default `ask` (a confined command). */
  runsUnasked: boolean;
}

/** The call ends without running; `decision` is what the permission layer reports. */
export interface CallStop {
  kind: 'stop';
  decision: 'allow' | 'deny' | 'refused';
  message: string;
}

export type FinalVerdict =
  | CallStop
  | { kind: 'allow' }
  | { kind: 'ask'; review?: PolicyReview; protectedPaths: string[] };

export type CallVerdict =
  | FinalVerdict
  | { kind: 'need'; fact: 'hook' }
  /** `sandbox`: whether the tool's `runsUnasked` matters (the default `ask`, not a written one). */
  | { kind: 'need'; fact: 'checks'; sandbox: boolean };

export function decideCall(
  facts: CallFacts & { hook: BeforeToolCall | null; checks: CallChecks },
): FinalVerdict;
export function decideCall(facts: CallFacts): CallVerdict;
export function decideCall(facts: CallFacts): CallVerdict {
  const { toolName, rules, mode, hook, checks } = facts;
  // A deny rule beats everything, approval modes and hooks included.
  if (rules.policy === 'deny') return stop('deny', `permission denied: tool ${toolName} is not allowed`);
  if (mode && 'refuse' in mode) return stop('refused', mode.refuse);
  const policy = mode?.policy ?? rules.policy;
  if (facts.argumentsError !== undefined)
    return stop(policy === 'allow' ? 'allow' : 'refused', facts.argumentsError);

  if (hook === undefined) return { kind: 'need', fact: 'hook' };
  // A hook's deny beats any allow; its allow never beats a deny rule (checked above), a
  // protected path or a tool's own reason to ask; its ask forces the question.
  if (hook?.decision === 'deny') return stop('deny', hook.reason ?? `blocked by a hook: tool ${toolName}`);

  // A confined command runs unasked under the default `ask`, not under an `ask` someone wrote.
  const sandbox = policy === 'ask' && rules.configured !== true;
  if (!checks) return { kind: 'need', fact: 'checks', sandbox };

  const { protectedPaths, toolReview } = checks;
  // Only built-in tools give a reason of their own, and only MCP tools get pin reviews.
  const review = toolReview ?? rules.review ?? hookReview(hook);
  const mustAsk = protectedPaths.length > 0 || toolReview !== undefined || hook?.decision === 'ask';
  // A changed MCP definition (a review) is asked whatever a hook says.
  const hookAllows = hook?.decision === 'allow' && rules.review === undefined;
  const unasked = sandbox && checks.runsUnasked;
  if (mustAsk || (policy === 'ask' && !hookAllows && !unasked)) {
    return { kind: 'ask', protectedPaths, ...(review ? { review } : {}) };
  }
  return { kind: 'allow' };
}

function stop(decision: CallStop['decision'], message: string): CallStop {
  return { kind: 'stop', decision, message };
}

/** A hook's `ask`, with its reason above the question (print mode refuses with it). */
function hookReview(hooked: BeforeToolCall | null): PolicyReview | undefined {
  if (hooked?.decision !== 'ask') return undefined;
  const why = hooked.reason ? `: ${hooked.reason}` : '';
  return {
    reason: `a hook asks about this call${why}`,
    refusal: `refused: a hook asks the person about this call${why}, and there is nobody to ask in this run`,
  };
}
