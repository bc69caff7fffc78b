/**
 * Why a model round ended, in the same words for every provider: each maps its own field
 * (Chat Completions' `finish_reason`, Anthropic's `stop_reason`, Gemini's `finishReason`, a
 * Responses `status`) onto these, and the agent and the faces decide from them alone whether an
 * answer is whole — a cut one is kept, said to be cut, and its tool calls never run.
 */

export type StopReason =
  /** The model finished its answer. */
  | 'end_turn'
  /** The model stopped to call tools. */
  | 'tool_use'
  /** The output token limit was reached: the text, and any tool call's arguments, may end mid-way. */
  | 'max_tokens'
  /** The model declined to go on. */
  | 'refusal'
  /** The provider's content filter stopped or withheld the output. */
  | 'content_filter'
  /** Any other early stop the provider named (Gemini's MALFORMED_FUNCTION_CALL, a value we do not know). */
  | 'other';

export type CutReason = Exclude<StopReason, 'end_turn' | 'tool_use'>;

export interface RoundStop {
  reason: StopReason;
  /** The provider's own field and value (`finish_reason: length`), for messages. */
  detail: string;
  /** The provider's own explanation, where it has a more precise one than the common words. */
  explanation?: string;
}

/** Longest provider value kept in `detail`: it comes from the server. */
const MAX_VALUE = 60;

/**
 * A stop as the provider named it. `value` comes from the server: only printable ASCII of it is
 * kept (and not much), so the detail is safe in any message.
 */
export function roundStop(reason: StopReason, field: string, value: string, explanation?: string): RoundStop {
  const shown = value.replace(/[^\x20-\x7e]/g, '?').slice(0, MAX_VALUE);
  return { reason, detail: `${field}: ${shown}`, ...(explanation ? { explanation } : {}) };
}

/** The round did not end as the model meant: its text may be incomplete and its calls must not run. */
export function isCut(stop: RoundStop | null | undefined): stop is RoundStop & { reason: CutReason } {
  return stop !== null && stop !== undefined && stop.reason !== 'end_turn' && stop.reason !== 'tool_use';
}

const WORDS: Record<CutReason, string> = {
  max_tokens: 'the model reached its output token limit',
  refusal: 'the model declined to continue',
  content_filter: 'the provider’s content filter stopped it',
  other: 'the provider stopped it early',
};

/** Why the answer is cut, in a clause: `the model reached its output token limit (finish_reason: length)`. */
export function cutCause(stop: RoundStop): string {
  const words = stop.explanation ?? WORDS[stop.reason as CutReason] ?? WORDS.other;
  return `${words} (${stop.detail})`;
}

/**
 * The one line every face shows for a cut answer (print mode's stderr, the TUI's notice, the ACP
 * text): what happened, why, and that calls were not run. `droppedCalls`: the round's calls.
 */
export function describeCut(stop: RoundStop, droppedCalls = 0): string {
  const calls =
    droppedCalls === 0
      ? ''
      : ` Its ${droppedCalls === 1 ? 'tool call was' : `${droppedCalls} tool calls were`} not run (the arguments may be incomplete).`;
  const refused = stop.reason === 'refusal';
  const what = refused ? 'the answer was stopped' : 'the answer was cut off';
  // The agent takes a refused turn back (agent/agent.ts): the APIs ask not to send it again.
  const left = refused ? ' This exchange is left out of the conversation.' : '';
  return `${what}: ${cutCause(stop)}. The text shown is all that arrived.${calls}${left}`;
}
