/**
 * The conversation: history (complete turns only) plus token accounting. A turn works on the live
 * array and is rolled back to its starting length if it fails or is cancelled.
 */
import type { Usage } from '../providers/types.js';
import { addUsage, emptyUsage } from './events.js';
import type { ChatMessage } from './messages.js';

export class Conversation {
  private readonly history: ChatMessage[] = [];
  private usage: Usage = emptyUsage();
  /** Prompt tokens of the latest request: how full the context window is. */
  private lastPromptTokens = 0;

  constructor(initial: readonly ChatMessage[] = []) {
    this.history.push(...initial);
  }

  get messages(): readonly ChatMessage[] {
    return this.history;
  }

  get totalUsage(): Usage {
    return this.usage;
  }

  get contextTokens(): number {
    return this.lastPromptTokens;
  }

  append(message: ChatMessage): void {
    this.history.push(message);
  }

  /** A mark to roll back to: history keeps complete turns only. */
  mark(): number {
    return this.history.length;
  }

  rollback(mark: number): void {
    this.history.length = Math.min(mark, this.history.length);
  }

  recordUsage(round: Usage): Usage {
    this.usage = addUsage(this.usage, round);
    this.lastPromptTokens = round.prompt_tokens;
    return this.usage;
  }

  clear(): void {
    this.history.length = 0;
  }
}
