/**
 * How long a reply may be (`max_tokens`, which the API requires) and how much of it may be
 * thinking, per Claude model. Extended thinking is on for the models that have it, with a budget
 * of DEFAULT_THINKING_BUDGET tokens unless GEEKAGENT_THINKING_BUDGET says otherwise (0 turns it
 * off); `max_tokens` always leaves room for the answer after the budget.
 */

export const DEFAULT_THINKING_BUDGET = 10_000;
/** The API's smallest budget. */
export const MIN_THINKING_BUDGET = 1_024;
/** Room for the answer (text and tool calls) beyond the thinking budget. */
const ANSWER_ROOM = 16_000;

export interface ReplyLimits {
  maxTokens: number;
  /** undefined: thinking off for this model or by setting. */
  thinkingBudget?: number;
}

/** Output limits of the Claude families (first match wins); other models get OTHER_MAX_OUTPUT. */
const MAX_OUTPUT: ReadonlyArray<readonly [RegExp, number]> = [
  [/claude-3-(opus|sonnet|haiku)/, 4_096],
  [/claude-3-5-/, 8_192],
  [/claude-opus-4(-0|-1|-2025)/, 32_000],
  [/claude/, 64_000],
];
/** Not a Claude name (a compatible server's own model): a modest reply limit, no thinking. */
const OTHER_MAX_OUTPUT = 8_192;

/** Claude 3.7 and every Claude 4 or later model think; the Claude 3 and 3.5 models do not. */
export function modelThinks(model: string): boolean {
  const name = model.toLowerCase();
  return name.includes('claude') && !/claude-(instant|2|3-(opus|sonnet|haiku)|3-5-)/.test(name);
}

export function replyLimits(model: string, budgetSetting: number | undefined): ReplyLimits {
  const name = model.toLowerCase();
  const cap = MAX_OUTPUT.find(([pattern]) => pattern.test(name))?.[1] ?? OTHER_MAX_OUTPUT;
  const wanted = budgetSetting ?? DEFAULT_THINKING_BUDGET;
  if (wanted === 0 || !modelThinks(model)) return { maxTokens: Math.min(cap, ANSWER_ROOM) };
  const maxTokens = Math.min(cap, Math.max(wanted, MIN_THINKING_BUDGET) + ANSWER_ROOM);
  // The API requires budget < max_tokens; a budget beyond the model's output leaves answer room.
  const thinkingBudget = Math.max(MIN_THINKING_BUDGET, Math.min(wanted, maxTokens - ANSWER_ROOM / 4));
  return { maxTokens, thinkingBudget };
}
