/**
 * The conversation: the history (agent/history.ts) plus token accounting — usage totals, how full
 * the context window is, and the characters-to-tokens ratio the last request showed. Every change
 * (history operations and usage reports) goes to listeners as data, which is what a session file
 * records and replays.
 */
import type { Usage } from '../providers/messages.js';
import { addUsage, emptyUsage } from './events.js';
import { History, type HistoryChange, type HistoryMessage } from './history.js';
import { DEFAULT_TOKENS_PER_CHAR, messagesChars, observedRatio } from './tokens.js';

export type ConversationChange =
  | HistoryChange
  /**
   * One model request's reported usage, the size of that request in characters, and the last
   * message it carried (null: none) — what later estimates count from.
   */
  | { type: 'usage'; usage: Usage; requestChars: number; afterId: string | null }
  /**
   * A feature's state that belongs to the session (the todo list): saved with it, restored on open,
   * never part of the history, so compaction cannot summarise it away.
   */
  | { type: 'state'; key: string; value: unknown };

/** The last reported request: its prompt tokens covered the history up to `afterId`. */
export interface UsageBasis {
  promptTokens: number;
  afterId: string | null;
}

/** What a saved session restores besides the messages. */
export interface ConversationState {
  messages: readonly HistoryMessage[];
  totalUsage: Usage;
  tokensPerChar: number;
  contextTokens: number;
  /** Set when the last report still describes the history (nothing compacted or rolled back since). */
  basis?: UsageBasis;
  /** Features' session state by key (see `setState`). */
  state?: Readonly<Record<string, unknown>>;
}

/** Replacements that keep what the last request saw: results put in order, a repaired run. */
const SIZE_KEEPING_REPLACEMENTS = new Set(['order', 'repair']);

export class Conversation {
  readonly history = new History();
  private usage: Usage = emptyUsage();
  /** Prompt tokens of the latest request (or the estimate after a compaction): how full the window is. */
  private context = 0;
  /** The latest request's usage: the panel's cached share is of its prompt. */
  private last: Usage | undefined;
  private ratio = DEFAULT_TOKENS_PER_CHAR;
  private basis: UsageBasis | undefined;
  private states = new Map<string, unknown>();
  private readonly listeners = new Set<(change: ConversationChange) => void>();

  constructor() {
    this.history.onChange((change) => {
      // A reset (everything dropped) starts the session's state over too: no stale todo list.
      if (change.type === 'truncate' && change.after === null) {
        this.context = 0;
        this.states.clear();
      }
      if (
        change.type === 'truncate' ||
        change.type === 'rewind' ||
        (change.type === 'replace' && !SIZE_KEEPING_REPLACEMENTS.has(change.reason))
      ) {
        this.basis = undefined;
      }
      this.emit(change);
    });
  }

  get messages(): readonly HistoryMessage[] {
    return this.history.messages;
  }

  get totalUsage(): Usage {
    return this.usage;
  }

  get contextTokens(): number {
    return this.context;
  }

  /** The latest request's reported usage in this run (undefined before the first). */
  get lastUsage(): Usage | undefined {
    return this.last;
  }

  get tokensPerChar(): number {
    return this.ratio;
  }

  onChange(listener: (change: ConversationChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A request's usage: totals grow, the context fill is what it reported, the ratio is learnt. */
  recordUsage(round: Usage, requestChars: number): Usage {
    this.usage = addUsage(this.usage, round);
    this.context = round.inputTokens;
    this.last = round;
    this.ratio = observedRatio(round.inputTokens, requestChars) ?? this.ratio;
    const afterId = this.history.last?.id ?? null;
    if (round.inputTokens > 0) this.basis = { promptTokens: round.inputTokens, afterId };
    this.emit({ type: 'usage', usage: round, requestChars, afterId });
    return this.usage;
  }

  /** A feature's session state (undefined: never set in this session). */
  state(key: string): unknown {
    return this.states.get(key);
  }

  /**
   * Takes a failed turn's messages back (everything after `after`; null: all of them). Unlike a
   * reset, the session's state stays even when the turn was the first (skills activated before it).
   */
  takeBack(after: string | null): void {
    const kept = [...this.states];
    this.history.truncateAfter(after);
    if (after !== null) return;
    // The reset cleared it: set again, so the session file replays to the same state.
    for (const [key, value] of kept) this.setState(key, value);
  }

  /** Sets a feature's session state; the session file records it as one line. */
  setState(key: string, value: unknown): void {
    this.states.set(key, value);
    this.emit({ type: 'state', key, value });
  }

  /** Tokens `chars` characters of this conversation probably take. */
  estimateTokens(chars: number): number {
    return Math.ceil(chars * this.ratio);
  }

  /**
   * Tokens the next request probably takes, given the characters of what is sent besides the
   * history (system prompt, tools). Counts from the provider's last report when it still
   * describes the history — its number plus what was added since — else from the characters.
   */
  estimateRequest(fixedChars: number): number {
    const messages = this.history.messages;
    if (this.basis) {
      const at = this.basis.afterId === null ? -1 : lastIndexOf(messages, this.basis.afterId);
      if (at >= 0 || this.basis.afterId === null) {
        return this.basis.promptTokens + this.estimateTokens(messagesChars(messages.slice(at + 1)));
      }
    }
    return this.estimateTokens(fixedChars + messagesChars(messages));
  }

  /** After a compaction: the panel shows the smaller size before the next request reports it. */
  setContextEstimate(tokens: number): void {
    this.context = tokens;
  }

  /** The history's own size in tokens (no system prompt, no tools). */
  historyTokens(): number {
    return this.estimateTokens(messagesChars(this.history.messages));
  }

  /** Replaces everything with a restored session (listeners hear `load`). */
  restore(state: ConversationState): void {
    this.usage = state.totalUsage;
    this.ratio = state.tokensPerChar;
    this.context = state.contextTokens;
    this.last = undefined;
    this.basis = state.basis;
    this.states = new Map(Object.entries(state.state ?? {}));
    this.history.load(state.messages);
  }

  /** A fresh conversation (a new session): no messages, no usage. */
  clear(): void {
    this.restore({ messages: [], totalUsage: emptyUsage(), tokensPerChar: this.ratio, contextTokens: 0 });
  }

  /** The basis as a saved session would restore it (for tests and tools that inspect it). */
  get usageBasis(): UsageBasis | undefined {
    return this.basis;
  }

  private emit(change: ConversationChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

function lastIndexOf(messages: readonly HistoryMessage[], id: string): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.id === id) return i;
  return -1;
}
