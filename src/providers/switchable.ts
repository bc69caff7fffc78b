/**
 * The provider the app hands out: it delegates every request to the current one, so the agent,
 * compaction, sub-agents' default model and MCP sampling all follow a `/model` switch without
 * holding a reference to the old provider. What one provider keeps on assistant messages
 * (`native`) stays on them; each provider sends back only its own kind's.
 */
import type { ChatProvider, ChatRequest, ChatRound, ProviderKind } from './types.js';

export class SwitchableProvider implements ChatProvider {
  #current: ChatProvider;

  constructor(initial: ChatProvider) {
    this.#current = initial;
  }

  get current(): ChatProvider {
    return this.#current;
  }

  get name(): ProviderKind {
    return this.#current.name;
  }

  get model(): string {
    return this.#current.model;
  }

  get contextWindow(): number {
    return this.#current.contextWindow;
  }

  get acceptsMedia(): boolean {
    return this.#current.acceptsMedia;
  }

  /** A request already running finishes on the provider it started on; the next one goes to `next`. */
  switchTo(next: ChatProvider): void {
    this.#current = next;
  }

  complete(request: ChatRequest): Promise<ChatRound> {
    return this.#current.complete(request);
  }

  prepare(): void {
    this.#current.prepare?.();
  }
}
