/**
 * Which MCP tools are deferred (their definitions left out of each model request) and the search
 * index over them. Deferral is on when the MCP tools' definitions would take more than a tenth of
 * the context window (GEEKAGENT_TOOL_SEARCH=auto), always (`on`) or never (`off`). A tool the model
 * found with `tool_search` or called by name is loaded: declared in every later request of the
 * session (a model can only call a tool its request declares), after every other tool, in load
 * order — so a load adds to the end of the tool list and the list before it stays byte-identical
 * (bench C1/C2 measures what that keeps of the prompt cache per provider). The index follows the
 * registry: it is brought up to date (added, replaced, removed by id) before the first use after
 * any change. Tools of servers still starting when the run's first request went (`late`, see
 * mcp/start-grace.ts) are left out of the prompt's name list (it must not change as they arrive);
 * undeferred, they join at the end of the tool list in arrival order, as loaded tools do.
 */
import { toolsChars } from '../agent/tokens.js';
import { createIndex, type SearchIndex, TOOL_FIELDS, toolDocument } from '../search/index.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/types.js';

/** The search tool's name (here, below the extension, because skills/ names it too). */
export const TOOL_SEARCH = 'tool_search';

export type ToolSearchMode = 'auto' | 'on' | 'off';

/** Deferral starts when MCP definitions would take more than this share of the window. */
export const DEFER_SHARE = 0.1;
/** Characters per token for the estimate (the agent's own default before any usage report). */
const CHARS_PER_TOKEN = 4;

export interface DeferralStats {
  mode: ToolSearchMode;
  /** Deferring now. */
  active: boolean;
  /** MCP tools the model could be sent. */
  total: number;
  /** Of them, left out of the next request. */
  deferred: number;
  /** Loaded by a search or a call. */
  loaded: number;
  /** Estimated tokens of every MCP definition, and of the deferred ones. */
  totalTokens: number;
  deferredTokens: number;
  contextWindow: number;
}

export class DeferredTools {
  /** Built on the first tool search: creating one (its synonym table) costs every start otherwise. */
  private indexValue: SearchIndex | undefined;
  /** What each indexed tool was indexed from, to replace only the changed ones. */
  private readonly indexed = new Map<string, string>();
  /** Loaded tools, each with its place in load order (the order they are sent in). */
  private readonly loaded = new Map<string, number>();
  private dirty = true;
  private activeNow = false;
  private mcpTools: Tool[] = [];
  private totalChars = 0;
  /** Late servers' tools, each with its place in arrival order (sent last while not deferring). */
  private readonly joined = new Map<string, number>();
  private late: () => readonly string[] = () => [];

  constructor(
    private readonly registry: ToolRegistry,
    readonly mode: ToolSearchMode,
    private readonly contextWindow: number,
  ) {
    registry.onChange(() => {
      this.dirty = true;
    });
  }

  /** Where the names of servers still starting when the first request went come from. */
  lateServers(late: () => readonly string[]): void {
    this.late = late;
    this.dirty = true;
  }

  /** Servers that were still starting when the first request went (the prompt names them). */
  lateNames(): readonly string[] {
    return this.mode === 'off' ? [] : this.late();
  }

  /** Whether `tool` belongs to a late server. */
  isLate(tool: Tool): boolean {
    return tool.origin?.kind === 'mcp' && this.late().includes(tool.origin.server);
  }

  /** Whether definitions are being deferred now. */
  get active(): boolean {
    this.refresh();
    return this.activeNow;
  }

  /** Whether `tool` is left out of the request now: MCP tools only, unless loaded. */
  isDeferred(tool: Tool): boolean {
    if (tool.origin?.kind !== 'mcp' || this.loaded.has(tool.name)) return false;
    return this.active;
  }

  /** Where a sent loaded tool goes: after every other tool, in load order; undefined for others. */
  loadedRank(tool: Tool): number | undefined {
    if (tool.origin?.kind !== 'mcp') return undefined;
    if (this.active) return this.loaded.get(tool.name);
    this.refresh();
    return this.joined.get(tool.name);
  }

  /** The deferred tools (visible, not loaded), in registry order. */
  deferredTools(): Tool[] {
    if (!this.active) return [];
    return this.mcpTools.filter((tool) => !this.loaded.has(tool.name));
  }

  /**
   * Every MCP tool tool search covers (loaded ones too), in registry order: the system prompt's
   * name list, which must not change as tools are loaded.
   */
  searchableTools(): Tool[] {
    return this.active ? [...this.mcpTools] : [];
  }

  /** Loads these tools (in this order, after those loaded before). Unknown names are ignored. */
  load(names: Iterable<string>): void {
    for (const name of names) {
      const tool = this.registry.get(name);
      if (tool?.origin?.kind === 'mcp' && !this.loaded.has(name)) this.loaded.set(name, this.loaded.size);
    }
  }

  isLoaded(name: string): boolean {
    return this.loaded.has(name);
  }

  /**
   * The best matches among the MCP tools the model may see (loaded ones too), best first; a query
   * that is a tool's full name gives that tool first (the prompt says a name finds its tool).
   */
  search(query: string, limit: number): Tool[] {
    this.refresh();
    this.syncIndex();
    const named = this.mcpTools.find((tool) => tool.name === query);
    const hits = this.index
      .search(query, { limit })
      .map((hit) => this.registry.get(hit.id))
      .filter((tool): tool is Tool => tool !== undefined && tool !== named && this.registry.isVisible(tool));
    return named ? [named, ...hits].slice(0, limit) : hits;
  }

  stats(): DeferralStats {
    this.refresh();
    const deferred = this.deferredTools();
    return {
      mode: this.mode,
      active: this.activeNow,
      total: this.mcpTools.length,
      deferred: deferred.length,
      loaded: this.mcpTools.length - deferred.length,
      totalTokens: Math.ceil(this.totalChars / CHARS_PER_TOKEN),
      deferredTokens: Math.ceil(toolsChars(deferred) / CHARS_PER_TOKEN),
      contextWindow: this.contextWindow,
    };
  }

  /** After a registry change: which MCP tools there are, and whether they crowd the window. */
  private refresh(): void {
    if (!this.dirty) return;
    this.dirty = false;
    this.mcpTools = this.registry.visible().filter((tool) => tool.origin?.kind === 'mcp');
    for (const tool of this.mcpTools)
      if (!this.joined.has(tool.name) && this.isLate(tool)) this.joined.set(tool.name, this.joined.size);
    this.totalChars = toolsChars(this.mcpTools.map(spec));
    this.activeNow =
      this.mode === 'on'
        ? this.mcpTools.length > 0
        : this.mode === 'auto' && this.totalChars / CHARS_PER_TOKEN > this.contextWindow * DEFER_SHARE;
    this.indexStale = true;
  }

  private indexStale = true;

  private get index(): SearchIndex {
    this.indexValue ??= createIndex({ fields: TOOL_FIELDS });
    return this.indexValue;
  }

  /** Brings the index in step with the registry's MCP tools (only what changed is re-indexed). */
  private syncIndex(): void {
    if (!this.indexStale) return;
    this.indexStale = false;
    const present = new Set<string>();
    for (const tool of this.mcpTools) {
      present.add(tool.name);
      const source = `${tool.description}\u0000${JSON.stringify(tool.parameters)}`;
      if (this.indexed.get(tool.name) === source) continue;
      this.index.replace(
        tool.name,
        toolDocument({
          name: tool.origin?.tool ?? tool.name,
          server: tool.origin?.server,
          description: withoutServerTag(tool.description),
          inputSchema: tool.parameters,
        }),
      );
      this.indexed.set(tool.name, source);
    }
    for (const name of [...this.indexed.keys()]) {
      if (present.has(name)) continue;
      this.index.remove(name);
      this.indexed.delete(name);
    }
  }
}

function spec(tool: Tool) {
  return { name: tool.name, description: tool.description, parameters: tool.parameters };
}

/** The registry's `[MCP:<server>] ` prefix says nothing the server field does not. */
export function withoutServerTag(description: string): string {
  return description.replace(/^\[MCP:[^\]]*\] /, '');
}
