/**
 * The result object of a print-mode turn: `--output-format json` prints it alone, stream-json as
 * its last line (`"type": "result"`) — one builder, so the two never drift apart. Field names follow
 * Claude Code's result message where the concepts match (subtype, is_error, num_turns, duration_ms,
 * usage.input_tokens …, stop_reason); GeekAgent's own (tool_calls, reasoning, usage.prompt_tokens …)
 * stay. A cut answer keeps its text in `result` but is not a success: its subtype names the reason
 * (`error_max_tokens` …), `is_error` is true, and print mode exits with EXIT_CUT.
 */
import { randomUUID } from 'node:crypto';
import type { TurnResult } from '../agent/agent.js';
import type { AgentEvent } from '../agent/events.js';
import type { App } from '../app/create-app.js';
import { cutLine, type TurnOutcome } from '../app/turn-controller.js';
import type { Usage } from '../providers/messages.js';
import { costUsd } from '../providers/prices.js';
import type { CutReason } from '../providers/stop-reason.js';
import { outputToText } from '../tools/types.js';

/** A call the permission layer did not let run, as Claude Code's `permission_denials` lists it. */
export interface PermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: unknown;
}

/**
 * What a turn's events add to its result: its model requests, its reasoning, how long it took
 * (and how much of that waiting for the model), the calls refused.
 */
export class TurnTally {
  /** Model requests (rounds) of the turn: Claude Code's num_turns. */
  rounds = 0;
  reasoning = '';
  /** Time from each request's start to its reply's end, summed. */
  apiMs = 0;
  readonly denials: PermissionDenial[] = [];
  private roundHas = false;
  private roundStarted: number | undefined;
  private readonly started = Date.now();

  apply(event: AgentEvent): void {
    if (event.type === 'round_start') {
      this.rounds = event.round;
      this.roundHas = false;
      this.roundStarted = Date.now();
    }
    if (event.type === 'round_end' && this.roundStarted !== undefined) {
      this.apiMs += Date.now() - this.roundStarted;
      this.roundStarted = undefined;
    }
    if (event.type === 'tool_end' && isDenied(event.outcome.decision)) {
      this.denials.push({
        tool_name: event.outcome.name,
        tool_use_id: event.callId,
        tool_input: parsedOrRaw(event.outcome.arguments),
      });
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

/** The permission layer's no: a rule (deny) or the person or approver (refused). */
export function isDenied(decision: string): boolean {
  return decision === 'deny' || decision === 'refused';
}

/**
 * Print mode's exit status when the answer was cut (output token limit, refusal, content filter):
 * its text was printed but is incomplete. 1 stays "no answer" (an error); 2 is left to usage errors.
 */
export const EXIT_CUT = 3;

const SUBTYPE: Record<Exclude<TurnOutcome['kind'], 'cut'>, string> = {
  completed: 'success',
  max_rounds: 'error_max_turns',
  failed: 'error_during_execution',
  cancelled: 'error_cancelled',
  not_configured: 'error_not_configured',
};

const CUT_SUBTYPE: Record<CutReason, string> = {
  max_tokens: 'error_max_tokens',
  refusal: 'error_refusal',
  content_filter: 'error_content_filter',
  other: 'error_stopped_early',
};

/** The turn's result object; `result` is the answer ('' when the turn did not end in one). */
export function resultObject(app: App, outcome: TurnOutcome, tally: TurnTally): Record<string, unknown> {
  const result: TurnResult | undefined =
    outcome.kind === 'completed' || outcome.kind === 'max_rounds' || outcome.kind === 'cut'
      ? outcome.result
      : undefined;
  return {
    type: 'result',
    subtype:
      outcome.kind === 'cut'
        ? (CUT_SUBTYPE[outcome.result.stop.reason as CutReason] ?? CUT_SUBTYPE.other)
        : SUBTYPE[outcome.kind],
    // A turn stopped at the round cap still answered (exit code 0): not an error for scripts. A cut
    // answer is one: it is incomplete.
    is_error: result === undefined || outcome.kind === 'cut',
    exit_reason: outcome.kind,
    // Claude Code's values (end_turn, max_tokens, refusal, tool_use) plus content_filter and other;
    // null when no model reply came.
    stop_reason: result?.stop?.reason ?? null,
    result: result?.text ?? '',
    ...(outcome.kind === 'failed' || outcome.kind === 'not_configured' ? { errors: [outcome.message] } : {}),
    ...(outcome.kind === 'cut' ? { errors: [cutLine(outcome)] } : {}),
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
    duration_api_ms: tally.apiMs,
    ...costFields(app.provider.model, result?.usage, app.provider.contextWindow),
    permission_denials: tally.denials,
    session_id: app.sessions.currentId,
    uuid: randomUUID(),
    ...app.extensions.reportFields(),
  };
}

/** The result of a command that ran no turn (stream-json: every input line gets one). */
export function commandResult(app: App, ok: boolean, durationMs: number): Record<string, unknown> {
  return {
    type: 'result',
    subtype: ok ? 'success' : 'error_during_execution',
    is_error: !ok,
    exit_reason: 'command',
    stop_reason: null,
    result: '',
    usage: usageObject(undefined),
    num_turns: 0,
    duration_ms: durationMs,
    duration_api_ms: 0,
    total_cost_usd: 0,
    modelUsage: {},
    permission_denials: [],
    session_id: app.sessions.currentId,
    uuid: randomUUID(),
  };
}

/** `total_cost_usd` and `modelUsage` (Claude Code's per-model counts) of one turn's usage. */
function costFields(model: string, usage: Usage | undefined, contextWindow: number): Record<string, unknown> {
  const cost = costUsd(model, usage);
  if (!usage) return { total_cost_usd: 0, modelUsage: {} };
  const cached = usage.cachedInputTokens ?? 0;
  return {
    total_cost_usd: cost,
    modelUsage: {
      [model]: {
        inputTokens: Math.max(0, usage.inputTokens - cached),
        outputTokens: usage.outputTokens,
        cacheReadInputTokens: cached,
        cacheCreationInputTokens: 0,
        webSearchRequests: 0,
        costUSD: cost,
        contextWindow,
      },
    },
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
    cache_creation_input_tokens: 0,
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
