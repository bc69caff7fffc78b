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
  /** One model request's reported usage, and the size of that request in characters. */
  | { type: 'usage'; usage: Usage; requestChars: number };

/** What a saved session restores besides the messages. */
export interface ConversationState {
  messages: readonly HistoryMessage[];
  totalUsage: Usage;
  tokensPerChar: number;
  contextTokens: number;
}

export class Conversation {
  readonly history = new History();
  private usage: Usage = emptyUsage();
  /** Prompt tokens of the latest request (or the estimate after a compaction): how full the window is. */
  private context = 0;
  private ratio = DEFAULT_TOKENS_PER_CHAR;
  private readonly listeners = new Set<(change: ConversationChange) => void>();

  constructor() {
    this.history.onChange((change) => {
      if (change.type === 'truncate' && change.after === null) this.context = 0;
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
    this.context = round.prompt_tokens;
    this.ratio = observedRatio(round.prompt_tokens, requestChars) ?? this.ratio;
    this.emit({ type: 'usage', usage: round, requestChars });
    return this.usage;
  }

  /** Tokens `chars` characters of this conversation probably take. */
  estimateTokens(chars: number): number {
    return Math.ceil(chars * this.ratio);
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
    this.history.load(state.messages);
  }

  /** A fresh conversation (a new session): no messages, no usage. */
  clear(): void {
    this.restore({ messages: [], totalUsage: emptyUsage(), tokensPerChar: this.ratio, contextTokens: 0 });
  }

  private emit(change: ConversationChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
