/**
 * One user turn: system prompt, model rounds (streamed), tool calls run concurrently through the
 * executor (at most 16 at once; the rest queue) with results returned in the model's order, up
 * to 30 rounds. A failed or cancelled turn leaves history as it was before the turn.
 */
import { getMaxListeners, setMaxListeners } from 'node:events';
import type { ChatProvider, Usage } from '../providers/types.js';
import type { ToolExecutor } from '../tools/executor.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolCallOutcome } from '../tools/types.js';
import { Limiter } from '../util/limiter.js';
import type { Conversation } from './conversation.js';
import { type AgentEventListener, addUsage, emptyUsage } from './events.js';
import type { ChatMessage, ToolCallRequest } from './messages.js';
import { buildSystemPrompt, type PromptSources } from './system-prompt.js';

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
  prompt: PromptSources;
  root: string;
  /**
   * Awaited before every model request (MCP: until every enabled server has settled, so the
   * model sees their tools); `notify` tells the person what is being waited for.
   */
  beforeModelRequest?: (signal: AbortSignal, notify: (message: string) => void) => Promise<void>;
  /** Rewrites the person's input before it enters history (MCP resource mentions attach content). */
  prepareInput?: (input: string, signal: AbortSignal, notify: (message: string) => void) => Promise<string>;
  maxRounds?: number;
  now?: () => Date;
}

export interface TurnResult {
  status: 'completed' | 'max_rounds';
  /** The final round's text: the answer. */
  text: string;
  toolCalls: ToolCallOutcome[];
  usage: Usage;
}

export interface TurnOptions {
  signal: AbortSignal;
  onEvent?: AgentEventListener;
}

export class Agent {
  constructor(private readonly deps: AgentDeps) {}

  get provider(): ChatProvider {
    return this.deps.provider;
  }

  get conversation(): Conversation {
    return this.deps.conversation;
  }

  /** Runs a turn; on error (provider, configuration, abort) rolls history back and rethrows. */
  async runTurn(input: string, options: TurnOptions): Promise<TurnResult> {
    const { conversation } = this.deps;
    const mark = conversation.mark();
    try {
      const notify = (message: string) => options.onEvent?.({ type: 'notice', message });
      const content = (await this.deps.prepareInput?.(input, options.signal, notify)) ?? input;
      conversation.append({ role: 'user', content });
      return await this.rounds(input, options);
    } catch (error) {
      conversation.rollback(mark);
      throw error;
    }
  }

  private async rounds(input: string, { signal, onEvent }: TurnOptions): Promise<TurnResult> {
    const { provider, registry, conversation } = this.deps;
    const maxRounds = this.deps.maxRounds ?? MAX_TOOL_ROUNDS;
    const toolCalls: ToolCallOutcome[] = [];
    let turnUsage = emptyUsage();
    const system = buildSystemPrompt(
      this.deps.prompt,
      { root: this.deps.root, now: this.deps.now?.() ?? new Date() },
      input,
    );

    for (let round = 1; ; round++) {
      signal.throwIfAborted();
      await this.deps.beforeModelRequest?.(signal, (message) => onEvent?.({ type: 'waiting', message }));
      onEvent?.({ type: 'round_start', round });
      const messages: ChatMessage[] = [{ role: 'system', content: system }, ...conversation.messages];
      const reply = await provider.complete({
        messages,
        tools: registry.toProviderTools(),
        signal,
        onText: (delta) => onEvent?.({ type: 'text', delta }),
      });
      if (reply.usage) {
        turnUsage = addUsage(turnUsage, reply.usage);
        const total = conversation.recordUsage(reply.usage);
        onEvent?.({ type: 'usage', round: reply.usage, turn: turnUsage, total });
      }
      const calledTools = reply.toolCalls.length > 0;
      conversation.append({
        role: 'assistant',
        content: reply.text === '' ? null : reply.text,
        ...(calledTools ? { tool_calls: reply.toolCalls } : {}),
        // Only tool-call rounds need their reasoning later; a final answer's is dropped (as the API does).
        ...(calledTools && reply.reasoning !== '' ? { reasoning_content: reply.reasoning } : {}),
      });
      if (!calledTools) {
        return { status: 'completed', text: reply.text, toolCalls, usage: turnUsage };
      }

      // Each call in flight listens on the turn's signal: past Node's default of 10 it would print
      // a "possible memory leak" warning (over the TUI) for what is only a wide round.
      const width = Math.min(reply.toolCalls.length, MAX_CONCURRENT_TOOL_CALLS);
      const listeners = width * LISTENERS_PER_CALL + LISTENER_HEADROOM;
      if (getMaxListeners(signal) < listeners) setMaxListeners(listeners, signal);
      const slots = new Limiter(MAX_CONCURRENT_TOOL_CALLS);
      const outcomes = await Promise.all(
        reply.toolCalls.map((call) => slots.run(() => this.runCall(call, signal, onEvent))),
      );
      signal.throwIfAborted();
      reply.toolCalls.forEach((call, index) => {
        const outcome = outcomes[index]!;
        toolCalls.push(outcome);
        conversation.append({
          role: 'tool',
          tool_call_id: call.id,
          name: call.name,
          content: outcome.output,
        });
      });
      if (round >= maxRounds) {
        return {
          status: 'max_rounds',
          text: `(stopped after ${maxRounds} tool rounds; send a message to continue)`,
          toolCalls,
          usage: turnUsage,
        };
      }
    }
  }

  private async runCall(
    call: ToolCallRequest,
    signal: AbortSignal,
    onEvent: AgentEventListener | undefined,
  ): Promise<ToolCallOutcome> {
    const started = Date.now();
    onEvent?.({ type: 'tool_start', callId: call.id, name: call.name, arguments: call.arguments });
    const outcome = await this.deps.executor.execute(call, signal, {
      onProgress: (progress) =>
        onEvent?.({ type: 'tool_progress', callId: call.id, name: call.name, progress }),
      onApproval: (request, answer) => onEvent?.({ type: 'approval', callId: call.id, request, answer }),
    });
    onEvent?.({ type: 'tool_end', callId: call.id, outcome, elapsedMs: Date.now() - started });
    return outcome;
  }
}
