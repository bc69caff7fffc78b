/**
 * The result object of a print-mode turn: `--output-format json` prints it alone, stream-json as
 * its last line (`"type": "result"`) — one builder, so the two never drift apart. Field names follow
 * Claude Code's result message where the concepts match (subtype, is_error, num_turns, duration_ms,
 * usage.input_tokens …); GeekAgent's own (tool_calls, reasoning, usage.prompt_tokens …) stay.
 */
import type { TurnResult } from '../agent/agent.js';
import type { AgentEvent } from '../agent/events.js';
import type { App } from '../app/create-app.js';
import type { TurnOutcome } from '../app/turn-controller.js';
import type { Usage } from '../providers/messages.js';
import { outputToText } from '../tools/types.js';

/** What a turn's events add to its result: its model requests, its reasoning, how long it took. */
export class TurnTally {
  /** Model requests (rounds) of the turn: Claude Code's num_turns. */
  rounds = 0;
  reasoning = '';
  private roundHas = false;
  private readonly started = Date.now();

  apply(event: AgentEvent): void {
    if (event.type === 'round_start') {
      this.rounds = event.round;
      this.roundHas = false;
    }
    if (event.type !== 'reasoning') return;
    // The rounds' reasoning apart by a blank line.
    if (!this.roundHas && this.reasoning !== '') this.reasoning += '\n\n';
    this.roundHas = true;
    this.reasoning += event.delta;
  }

  get durationMs(): number {
    return Date.now() - this.started;
  }
}

const SUBTYPE: Record<TurnOutcome['kind'], string> = {
  completed: 'success',
  max_rounds: 'error_max_turns',
  failed: 'error_during_execution',
  cancelled: 'error_cancelled',
  not_configured: 'error_not_configured',
};

/** The turn's result object; `result` is the answer ('' when the turn did not end in one). */
export function resultObject(app: App, outcome: TurnOutcome, tally: TurnTally): Record<string, unknown> {
  const result: TurnResult | undefined =
    outcome.kind === 'completed' || outcome.kind === 'max_rounds' ? outcome.result : undefined;
  return {
    type: 'result',
    subtype: SUBTYPE[outcome.kind],
    // A turn stopped at the round cap still answered (exit code 0): not an error for scripts.
    is_error: result === undefined,
    exit_reason: outcome.kind,
    result: result?.text ?? '',
    ...(outcome.kind === 'failed' || outcome.kind === 'not_configured' ? { errors: [outcome.message] } : {}),
    reasoning: tally.reasoning,
    tool_calls: (result?.toolCalls ?? []).map((call) => ({
      name: call.name,
      arguments: parsedOrRaw(call.arguments),
      decision: call.decision,
      result: outputToText(call.output),
      is_error: call.isError,
    })),
    usage: usageObject(result?.usage),
    num_turns: tally.rounds,
    duration_ms: tally.durationMs,
    session_id: app.sessions.currentId,
    ...app.extensions.reportFields(),
  };
}

/**
 * The documented JSON names for a `Usage` (providers/messages.ts): GeekAgent's (prompt_tokens …,
 * cached_tokens always there: 0 when the provider reported no cache reads) and Claude Code's names
 * for the same counts: input_tokens is the input not read from the cache, as Anthropic counts it.
 * The JSON keeps these names whatever the internal ones are: scripts read them.
 */
function usageObject(usage: Usage | undefined): Record<string, number> {
  const prompt = usage?.inputTokens ?? 0;
  const cached = usage?.cachedInputTokens ?? 0;
  const completion = usage?.outputTokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: usage?.totalTokens ?? 0,
    cached_tokens: cached,
    input_tokens: Math.max(0, prompt - cached),
    output_tokens: completion,
    cache_read_input_tokens: cached,
  };
}

/** Arguments as the object the model meant, or the raw text when it sent broken JSON. */
export function parsedOrRaw(raw: string): unknown {
  try {
    return raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    return raw;
  }
}
