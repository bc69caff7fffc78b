/**
 * The tool registry: the one table of tools the model can see. Built-in, MCP and skill tools all
 * register here; listeners hear about changes (the panel, the MCP layer's live re-listing).
 *
 * Its order is the tool list's order in every request, so it must not depend on timing: tools not
 * from MCP first, in registration order; then MCP tools by server in config order (`orderServers`;
 * servers it does not name after them, in the order they first registered), each server's in its
 * listing order — the same whether a listing came from the cache (registered before the built-ins)
 * or from a live connection (after them), and a re-listing of the same tools keeps its places. A
 * change of the order would cost the provider's prompt cache for the whole history.
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
  /** Sent after every other tool, in this rank's order (tools loaded by tool search). */
  private lastRank: ((tool: Tool) => number | undefined) | null = null;
  /** Server name → its place in the config. */
  private readonly serverRanks = new Map<string, number>();
  /** `list()` computed since the last change. */
  private ordered: Tool[] | null = null;

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

  /** Waits for a tool that may still arrive (its MCP server is starting); set by its owner. */
  private arrivals: ((name: string, signal: AbortSignal) => Promise<void>) | null = null;

  setArrivals(wait: (name: string, signal: AbortSignal) => Promise<void>): void {
    this.arrivals = wait;
  }

  /** `name`'s tool, once it arrived if it may still (undefined when it never will). */
  async arrival(name: string, signal: AbortSignal): Promise<Tool | undefined> {
    const tool = this.get(name);
    if (tool || !this.arrivals) return tool;
    await this.arrivals(name, signal);
    return this.get(name);
  }

  /**
   * The order of MCP servers' tools: these names in this order, after those ordered before (a
   * skill's servers come after the configured ones).
   */
  orderServers(names: readonly string[]): void {
    for (const name of names)
      if (!this.serverRanks.has(name)) this.serverRanks.set(name, this.serverRanks.size);
    this.changed();
  }

  /** Every tool, in the order requests send them (see the module comment). */
  list(): Tool[] {
    this.ordered ??= this.order();
    return [...this.ordered];
  }

  private order(): Tool[] {
    const own: Tool[] = [];
    const byServer = new Map<string, Tool[]>();
    for (const tool of this.tools.values()) {
      if (tool.origin?.kind !== 'mcp') {
        own.push(tool);
        continue;
      }
      const group = byServer.get(tool.origin.server) ?? [];
      group.push(tool);
      byServer.set(tool.origin.server, group);
    }
    const rank = (server: string) => this.serverRanks.get(server) ?? Number.MAX_SAFE_INTEGER;
    // A stable sort: servers the config does not name keep the order they first registered in.
    const servers = [...byServer.keys()].sort((a, b) => rank(a) - rank(b));
    return [...own, ...servers.flatMap((server) => byServer.get(server)!)];
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

  /**
   * Decides which visible tools are deferred (read at every request); null defers none. `last`
   * ranks the tools sent after all others (see ExtensionSetup.on.toolDeferral).
   */
  setDeferFilter(filter: ToolFilter | null, last?: (tool: Tool) => number | undefined): void {
    this.deferFilter = filter;
    this.lastRank = last ?? null;
  }

  /** Whether `tool`'s definition is left out of the request now (it stays callable). */
  isDeferred(tool: Tool): boolean {
    return this.deferFilter ? this.deferFilter(tool) : false;
  }

  /** The visible, not deferred tools in the provider-neutral shape the provider converts. */
  toProviderTools(): Array<ToolSpec & { origin?: { server: string; tool: string }; loaded?: true }> {
    const deferred = this.deferFilter;
    let sent = deferred ? this.visible().filter((tool) => !deferred(tool)) : this.visible();
    const last = this.lastRank;
    if (last) {
      const ranked = sent.filter((tool) => last(tool) !== undefined);
      ranked.sort((a, b) => last(a)! - last(b)!);
      sent = [...sent.filter((tool) => last(tool) === undefined), ...ranked];
    }
    return sent.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      ...(tool.origin ? { origin: { server: tool.origin.server, tool: tool.origin.tool } } : {}),
      ...(last?.(tool) !== undefined ? { loaded: true as const } : {}),
    }));
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.ordered = null;
    for (const listener of this.listeners) listener();
  }
}
