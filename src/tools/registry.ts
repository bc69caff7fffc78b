/**
 * The tool registry: the one table of tools the model can see. Built-in, MCP and skill tools all
 * register here; listeners hear about changes (the panel, the MCP layer's live re-listing).
 */
import type { Tool, ToolSpec } from './types.js';

export type ToolFilter = (tool: Tool) => boolean;

export class DuplicateToolError extends Error {
  override readonly name = 'DuplicateToolError';
}

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private readonly listeners = new Set<() => void>();
  /** Narrows what the model sees (an active skill's whitelist); null means every tool. */
  private visibleFilter: ToolFilter | null = null;
  /**
   * Visible tools whose definitions are left out of the request for now (tool search): unlike a
   * hidden tool, a deferred one still runs when the model names it.
   */
  private deferFilter: ToolFilter | null = null;

  register(tool: Tool): void {
    if (this.tools.has(tool.name)) throw new DuplicateToolError(`tool already registered: ${tool.name}`);
    this.tools.set(tool.name, tool);
    this.changed();
  }

  /** Replaces a tool of the same name, or adds it (MCP re-listing keeps names stable). */
  upsert(tool: Tool): void {
    this.tools.set(tool.name, tool);
    this.changed();
  }

  unregister(name: string): boolean {
    const removed = this.tools.delete(name);
    if (removed) this.changed();
    return removed;
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  list(): Tool[] {
    return [...this.tools.values()];
  }

  setVisibleFilter(filter: ToolFilter | null): void {
    this.visibleFilter = filter;
    this.changed();
  }

  visible(): Tool[] {
    const filter = this.visibleFilter;
    return filter ? this.list().filter(filter) : this.list();
  }

  /** Whether the model is shown `tool` now; the executor refuses a hidden tool it names anyway. */
  isVisible(tool: Tool): boolean {
    return this.visibleFilter ? this.visibleFilter(tool) : true;
  }

  /** Decides which visible tools are deferred (read at every request); null defers none. */
  setDeferFilter(filter: ToolFilter | null): void {
    this.deferFilter = filter;
  }

  /** Whether `tool`'s definition is left out of the request now (it stays callable). */
  isDeferred(tool: Tool): boolean {
    return this.deferFilter ? this.deferFilter(tool) : false;
  }

  /** The visible, not deferred tools in the provider-neutral shape the provider converts. */
  toProviderTools(): Array<ToolSpec & { origin?: { server: string; tool: string } }> {
    const deferred = this.deferFilter;
    const sent = deferred ? this.visible().filter((tool) => !deferred(tool)) : this.visible();
    return sent.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      ...(tool.origin ? { origin: { server: tool.origin.server, tool: tool.origin.tool } } : {}),
    }));
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
