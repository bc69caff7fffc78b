/**
 * The permission verdict for one tool call, decided once, in one function that reads in the
 * order it judges: the rules, the approval mode, the arguments, the interceptors' word, the
 * tool's own checks (protected paths, its reason to ask, a confined run). The facts that cost
 * work or have side effects (interceptors run hook commands; checks read files) come from
 * `gather`, asked only when the verdict gets that far; each answers at once or as a promise, so
 * a call with nothing to gather (an allowed MCP tool, no interceptors) is decided synchronously.
 */
import type { Policy, PolicyReview, PolicyVerdict } from './approval.js';
import type { BeforeToolCall } from './call-interceptors.js';

/** The facts known before anything is gathered. */
export interface CallFacts {
  toolName: string;
  /** The rules' verdict: the policy, a changed MCP definition to review, whether a person wrote it. */
  rules: Pick<PolicyVerdict, 'policy' | 'review' | 'configured'>;
  /** The approval mode's word (plan refuses; accept-edits and bypass lift an ask); none: the rules'. */
  mode?: { refuse: string } | { policy: Policy };
  /** Why the arguments could not be read (the text the model gets); undefined: they parsed. */
  argumentsError?: string;
}

export interface CallChecks {
  /** Protected paths the call touches (asked even under `allow`). */
  protectedPaths: string[];
  /** The tool's own reason to ask for this call (asked even under `allow`). */
  toolReview?: PolicyReview;
  /** The tool would run this call unasked under the default `ask` (a confined command). */
  runsUnasked: boolean;
}

/** A value now, or later. */
export type Settle<T> = T | Promise<T>;

/** The facts gathered only when the verdict needs them, in this order. */
export interface CallGather {
  /** The interceptors' combined word (deny > ask > allow); null: they said nothing. */
  interceptorsSay(): Settle<BeforeToolCall | null>;
  /** The tool's own checks; `sandbox`: whether its `runsUnasked` matters (the default `ask`). */
  checks(sandbox: boolean): Settle<CallChecks>;
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

export function decideCall(facts: CallFacts, gather: CallGather): Settle<FinalVerdict> {
  const { toolName, rules, mode } = facts;
  // A deny rule beats everything, approval modes and interceptors included.
  if (rules.policy === 'deny') return stop('deny', `permission denied: tool ${toolName} is not allowed`);
  if (mode && 'refuse' in mode) return stop('refused', mode.refuse);
  const policy = mode?.policy ?? rules.policy;
  if (facts.argumentsError !== undefined)
    return stop(policy === 'allow' ? 'allow' : 'refused', facts.argumentsError);

  return andThen(gather.interceptorsSay(), (said) => {
    // An interceptor's deny beats any allow; its allow never beats a deny rule (checked above), a
    // protected path or a tool's own reason to ask; its ask forces the question.
    if (said?.decision === 'deny') return stop('deny', said.reason ?? `blocked by a hook: tool ${toolName}`);
    // A confined command runs unasked under the default `ask`, not under an `ask` someone wrote.
    const sandbox = policy === 'ask' && rules.configured !== true;
    return andThen(gather.checks(sandbox), (checks): FinalVerdict => {
      const { protectedPaths, toolReview } = checks;
      // Only built-in tools give a reason of their own, and only MCP tools get pin reviews.
      const review = toolReview ?? rules.review ?? interceptorReview(said);
      const mustAsk = protectedPaths.length > 0 || toolReview !== undefined || said?.decision === 'ask';
      // A changed MCP definition (a review) is asked whatever an interceptor says.
      const saidAllow = said?.decision === 'allow' && rules.review === undefined;
      const unasked = sandbox && checks.runsUnasked;
      if (mustAsk || (policy === 'ask' && !saidAllow && !unasked)) {
        return { kind: 'ask', protectedPaths, ...(review ? { review } : {}) };
      }
      return { kind: 'allow' };
    });
  });
}

/** `next` of a value now (named so a module namespace is no thenable), or of a promise's value: no pause for what is already known (bench row 4). */
export function andThen<T, U>(value: Settle<T>, next: (value: T) => Settle<U>): Settle<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

function stop(decision: CallStop['decision'], message: string): CallStop {
  return { kind: 'stop', decision, message };
}

/** An interceptor's `ask`, with its reason above the question (print mode refuses with it). */
function interceptorReview(said: BeforeToolCall | null): PolicyReview | undefined {
  if (said?.decision !== 'ask') return undefined;
  const why = said.reason ? `: ${said.reason}` : '';
  return {
    reason: `a hook asks about this call${why}`,
    refusal: `refused: a hook asks the person about this call${why}, and there is nobody to ask in this run`,
  };
}
