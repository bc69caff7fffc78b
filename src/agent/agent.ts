/**
 * One user turn: system prompt (the agent's instructions plus the extensions' `system` sections,
 * the same every turn of a session), the input (rewritten by extensions) appended as the user
 * message with the extensions' `turn` sections as its context, then model rounds (streamed) with
 * tool calls run through the executor — concurrently (at most 16 at once; the rest queue), except
 * calls that must not overlap — results in the model's order, up to 30 rounds. Before every
 * request the turn points run (MCP wait, compaction); a request the provider refuses as too long is
 * compacted and retried once. A failed or cancelled turn takes its own messages back out of the history.
 * A round the provider cut (output token limit, refusal, content filter) ends the turn as `cut`:
 * its text is kept, its tool calls are never run (their arguments may be cut too: each gets a
 * "not run" result), and a refused turn is taken back out of the history, as the APIs ask.
 */
import { getMaxListeners, setMaxListeners } from 'node:events';
import type { Message, Usage, UserImage } from '../providers/messages.js';
import { cutCause, isCut } from '../providers/stop-reason.js';
import {
  type ChatProvider,
  type ChatRound,
  ContextOverflowError,
  type RoundStop,
} from '../providers/types.js';
import type { ToolExecutor } from '../tools/executor.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolCall, ToolCallOutcome } from '../tools/types.js';
import { raceAbort } from '../util/race-abort.js';
import type { Conversation } from './conversation.js';
import { type AgentEvent, type AgentEventListener, addUsage, emptyUsage } from './events.js';
import type { HistoryMessage } from './history.js';
import { buildSystemPrompt, buildTurnContext } from './system-prompt.js';
import { messagesChars, toolsChars } from './tokens.js';
import { runToolRound } from './tool-round.js';
import { NO_TURN_POINTS, type RequestScope, type TurnPoints, type TurnScope } from './turn-points.js';

export const MAX_TOOL_ROUNDS = 30;
/** Tool calls of one round running at once: a round of 200 calls must not start 200 shells. */
export const MAX_CONCURRENT_TOOL_CALLS = 16;
/** Listeners one running call may hold on the turn's signal (executor, tool or SDK, approver). */
const LISTENERS_PER_CALL = 3;
/** Listeners on a turn's signal besides its tool calls' (the model stream, waits, the face). */
const LISTENER_HEADROOM = 10;

export interface AgentDeps {
  provider: ChatProvider;
  registry: ToolRegistry;
  executor: ToolExecutor;
  conversation: Conversation;
  root: string;
  /** The extensions' turn points (extensions/host.ts); none by default. */
  turnPoints?: TurnPoints;
  maxRounds?: number;
  now?: () => Date;
  /**
   * The provider's prompt-cache key: stable for a whole session (the session id; a sub-agent run
   * has its own), read at every request since /new and /open change the session.
   */
  cacheKey?: () => string | undefined;
}

export interface TurnResult {
  /** `cut`: the last round did not end as the model meant (see `stop`); its text is all that came. */
  status: 'completed' | 'max_rounds' | 'cut';
  /** The final round's text: the answer. */
  text: string;
  toolCalls: ToolCallOutcome[];
  usage: Usage;
  /** Why the last round ended. */
  stop?: RoundStop;
  /** For a cut turn: how many of the last round's tool calls were not run. */
  droppedCalls?: number;
}

export interface TurnOptions {
  signal: AbortSignal;
  onEvent?: AgentEventListener;
  /** The input is what the person typed (see TurnScope.byPerson); false when left out. */
  byPerson?: boolean;
  /**
   * The face's output is behind: a promise the turn waits for (before each round and each streamed
   * chunk) so what it reports never piles up unread; undefined: go on. See ChatRequest.pace.
   */
  pace?: () => Promise<void> | undefined;
  /** Images the face handed over with the input (an editor's pasted image); see TurnScope.images. */
  images?: readonly UserImage[];
}

interface TurnState {
  system: string;
  signal: AbortSignal;
  pace: (() => Promise<void> | undefined) | undefined;
  turnStart: string;
  emit: (event: AgentEvent) => void;
}

export class Agent {
  /**
   * The date the system prompt says: fixed when the session starts (a first turn), so a session
   * that runs past midnight keeps its system prompt — and the provider's prompt cache.
   */
  private sessionDate: Date | undefined;

  constructor(private readonly deps: AgentDeps) {}

  get provider(): ChatProvider {
    return this.deps.provider;
  }

  get conversation(): Conversation {
    return this.deps.conversation;
  }

  private get turnPoints(): TurnPoints {
    return this.deps.turnPoints ?? NO_TURN_POINTS;
  }

  /** Runs a turn; on error (provider, configuration, abort) takes the turn back out and rethrows. */
  async runTurn(input: string, options: TurnOptions): Promise<TurnResult> {
    const { history } = this.deps.conversation;
    const emit = (event: AgentEvent) => {
      options.onEvent?.(event);
      this.turnPoints.onEvent(event);
    };
    const images: UserImage[] = [];
    const scope: TurnScope = {
      input,
      byPerson: options.byPerson === true,
      signal: options.signal,
      notify: (message) => emit({ type: 'notice', message }),
      waiting: (message) => emit({ type: 'waiting', message }),
      attachImage: (image) => images.push(image),
      ...(options.images?.length ? { images: options.images } : {}),
    };
    let turnStart: string | undefined;
    try {
      if (this.sessionDate === undefined || history.messages.length === 0)
        this.sessionDate = this.deps.now?.() ?? new Date();
      const sections = await this.turnPoints.promptSections(scope);
      const system = buildSystemPrompt({ root: this.deps.root, now: this.sessionDate }, sections);
      const context = buildTurnContext(sections);
      const text = await this.turnPoints.prepareInput(input, scope);
      turnStart = history.append({
        role: 'user',
        text,
        ...(context !== undefined ? { context } : {}),
        ...(images.length > 0 ? { images } : {}),
      }).id;
      const pace = paceWithin(options.pace, options.signal);
      return await this.rounds({ system, signal: options.signal, pace, turnStart, emit });
    } catch (error) {
      if (turnStart !== undefined) this.takeBack(turnStart);
      throw error;
    }
  }

  /** Removes the turn that began with message `turnStart`, and everything after it. */
  private takeBack(turnStart: string): void {
    const { conversation } = this.deps;
    const at = conversation.history.indexOf(turnStart);
    if (at < 0) return;
    conversation.takeBack(at === 0 ? null : conversation.history.messages[at - 1]!.id);
  }

  private async rounds(turn: TurnState): Promise<TurnResult> {
    const { registry, conversation } = this.deps;
    const { signal, emit } = turn;
    const maxRounds = this.deps.maxRounds ?? MAX_TOOL_ROUNDS;
    const toolCalls: ToolCallOutcome[] = [];
    let turnUsage = emptyUsage();
    let continued = false;

    for (let round = 1; ; round++) {
      signal.throwIfAborted();
      await turn.pace?.();
      await this.turnPoints.beforeRequest(this.requestScope(turn, 'auto'));
      emit({ type: 'round_start', round });
      const { reply, requestChars } = await this.complete(turn);
      if (reply.usage) {
        turnUsage = addUsage(turnUsage, reply.usage);
        const total = conversation.recordUsage(reply.usage, requestChars);
        emit({ type: 'usage', round: reply.usage, turn: turnUsage, total });
      }
      const calledTools = reply.toolCalls.length > 0;
      conversation.history.append({
        role: 'assistant',
        text: reply.text,
        ...(calledTools ? { toolCalls: reply.toolCalls } : {}),
        // Only tool-call rounds need their reasoning later; a final answer's is dropped (as the API does).
        ...(calledTools && reply.reasoning !== '' ? { reasoning: reply.reasoning } : {}),
        ...(reply.native !== undefined ? { native: reply.native } : {}),
      });
      emit({
        type: 'round_end',
        round,
        text: reply.text,
        reasoning: reply.reasoning,
        toolCalls: reply.toolCalls,
        ...(reply.stop ? { stop: reply.stop } : {}),
      });
      const stop = reply.stop ?? undefined;
      if (isCut(stop)) return this.cutTurn(turn, reply, stop, { toolCalls, usage: turnUsage });
      if (!calledTools) {
        const more =
          round < maxRounds
            ? await this.turnPoints.beforeStop?.({ answer: reply.text, signal, continued })
            : undefined;
        signal.throwIfAborted();
        if (more === undefined)
          return {
            status: 'completed',
            text: reply.text,
            toolCalls,
            usage: turnUsage,
            ...(stop ? { stop } : {}),
          };
        continued = true;
        conversation.history.append({ role: 'user', text: more });
        continue;
      }

      // Each call in flight listens on the turn's signal: past Node's default of 10 it would print
      // a "possible memory leak" warning (over the TUI) for what is only a wide round.
      const width = Math.min(reply.toolCalls.length, MAX_CONCURRENT_TOOL_CALLS);
      const listeners = width * LISTENERS_PER_CALL + LISTENER_HEADROOM;
      if (getMaxListeners(signal) < listeners) setMaxListeners(listeners, signal);
      // Each result enters the history (and the session file) the moment its call ends, so a crash
      // mid-round keeps the finished ones; once all are in they are put in the model's order.
      const appended: HistoryMessage[] = [];
      const batch = {
        calls: reply.toolCalls,
        registry,
        root: this.deps.root,
        limit: MAX_CONCURRENT_TOOL_CALLS,
      };
      const outcomes = await runToolRound(batch, async (call) => {
        const outcome = await this.runCall(call, signal, emit);
        if (!signal.aborted) appended.push(conversation.history.append(toolMessage(call, outcome)));
        return outcome;
      });
      signal.throwIfAborted();
      toolCalls.push(...outcomes);
      const ordered = reply.toolCalls.map((call) =>
        appended.find((message) => message.role === 'tool' && message.callId === call.id),
      );
      if (ordered.some((message, index) => message !== appended[index])) {
        conversation.history.replaceRange(
          appended[0]!.id,
          appended.at(-1)!.id,
          reply.toolCalls.map((call, index) => toolMessage(call, outcomes[index]!)),
          'order',
        );
      }
      if (round >= maxRounds) {
        return {
          status: 'max_rounds',
          text: `(stopped after ${maxRounds} tool rounds; send a message to continue)`,
          toolCalls,
          usage: turnUsage,
          ...(stop ? { stop } : {}),
        };
      }
    }
  }

  /**
   * The round was cut: none of its calls runs (each is answered "not run", so the history stays
   * a valid exchange and the model knows next time), the stop hooks do not run, and the turn ends.
   * A refused turn leaves the history: the APIs ask not to send a refused exchange again.
   */
  private cutTurn(
    turn: TurnState,
    reply: ChatRound,
    stop: RoundStop,
    sofar: { toolCalls: ToolCallOutcome[]; usage: Usage },
  ): TurnResult {
    const { history } = this.deps.conversation;
    const output =
      `not run: the reply was cut off before this call was complete — ${cutCause(stop)} — so its ` +
      'arguments may be incomplete and nothing was executed. Send it again (in smaller pieces if it was long).';
    for (const call of reply.toolCalls) {
      const outcome: ToolCallOutcome = {
        name: call.name,
        arguments: call.arguments,
        decision: 'deny',
        output,
        isError: true,
      };
      turn.emit({ type: 'tool_start', callId: call.id, name: call.name, arguments: call.arguments });
      turn.emit({ type: 'tool_decision', callId: call.id, name: call.name, decision: 'deny' });
      turn.emit({ type: 'tool_end', callId: call.id, outcome, elapsedMs: 0 });
      history.append(toolMessage(call, outcome));
      sofar.toolCalls.push(outcome);
    }
    if (stop.reason === 'refusal') this.takeBack(turn.turnStart);
    return {
      status: 'cut',
      text: reply.text,
      toolCalls: sofar.toolCalls,
      usage: sofar.usage,
      stop,
      droppedCalls: reply.toolCalls.length,
    };
  }

  /** One model request; refused as too long, the turn points compact and it is sent once more. */
  private async complete(turn: TurnState): Promise<{ reply: ChatRound; requestChars: number }> {
    for (let attempt = 1; ; attempt++) {
      const tools = this.deps.registry.toProviderTools();
      const messages: Message[] = [{ role: 'system', text: turn.system }, ...this.deps.conversation.messages];
      const requestChars = messagesChars(messages) + toolsChars(tools);
      try {
        const reply = await this.deps.provider.complete({
          messages,
          tools,
          signal: turn.signal,
          onText: (delta) => turn.emit({ type: 'text', delta }),
          onReasoning: (delta) => turn.emit({ type: 'reasoning', delta }),
          onNotice: (message) => turn.emit({ type: 'notice', message }),
          ...(turn.pace ? { pace: turn.pace } : {}),
          ...this.cacheKey(),
        });
        return { reply, requestChars };
      } catch (error) {
        if (!(error instanceof ContextOverflowError) || attempt > 1) throw error;
        await this.turnPoints.beforeRequest(this.requestScope(turn, 'overflow'));
      }
    }
  }

  private cacheKey(): { cacheKey?: string } {
    const key = this.deps.cacheKey?.();
    return key ? { cacheKey: key } : {};
  }

  private requestScope(turn: TurnState, trigger: RequestScope['trigger']): RequestScope {
    const { conversation, registry } = this.deps;
    return {
      signal: turn.signal,
      conversation,
      turnStart: turn.turnStart,
      trigger,
      estimateTokens: () =>
        conversation.estimateRequest(turn.system.length + toolsChars(registry.toProviderTools())),
      requestChars: () =>
        turn.system.length + toolsChars(registry.toProviderTools()) + messagesChars(conversation.messages),
      waiting: (message) => turn.emit({ type: 'waiting', message }),
      emit: turn.emit,
    };
  }

  private async runCall(
    call: ToolCall,
    signal: AbortSignal,
    emit: (event: AgentEvent) => void,
  ): Promise<ToolCallOutcome> {
    const started = Date.now();
    emit({ type: 'tool_start', callId: call.id, name: call.name, arguments: call.arguments });
    const outcome = await this.deps.executor.execute(call, signal, {
      onProgress: (progress) => emit({ type: 'tool_progress', callId: call.id, name: call.name, progress }),
      onApproval: (request, answer) => emit({ type: 'approval', callId: call.id, request, answer }),
      onNotice: (message) => emit({ type: 'notice', message }),
      onDecision: (decision) => emit({ type: 'tool_decision', callId: call.id, name: call.name, decision }),
    });
    emit({ type: 'tool_end', callId: call.id, outcome, elapsedMs: Date.now() - started });
    return outcome;
  }
}

/** The face's pace, given up on when the turn is cancelled (a reader that never reads again). */
function paceWithin(
  pace: (() => Promise<void> | undefined) | undefined,
  signal: AbortSignal,
): (() => Promise<void> | undefined) | undefined {
  if (!pace) return undefined;
  return () => {
    const wait = pace();
    return wait ? raceAbort(wait, signal) : undefined;
  };
}

function toolMessage(call: ToolCall, outcome: ToolCallOutcome): Message {
  return {
    role: 'tool',
    callId: call.id,
    name: call.name,
    output: outcome.output,
    ...(outcome.isError ? { isError: true } : {}),
  };
}
