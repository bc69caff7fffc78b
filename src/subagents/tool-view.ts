/**
 * A sub-agent's view of the tool registry: the parent's tools (MCP ones included, as they are
 * now) narrowed to what the agent's `tools` patterns name, plus tools of its own (a deeper
 * `delegate_task`) — and of those only what the parent's conversation may use now: an active
 * skill's whitelist (the parent registry's visible filter) limits a child as it limits the main
 * agent, so delegating never widens it. Every other tool is hidden: the model is not shown it, and
 * the executor refuses it ("not available in this conversation") if the model names it anyway.
 */
import { ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/types.js';
import { toolPatternMatches } from '../util/tool-pattern.js';

export interface ViewOptions {
  patterns: readonly string[];
  /** MCP tools the server marked `readOnlyHint` (the `@readonly-mcp` pattern). */
  isReadOnlyMcp: (name: string) => boolean;
  /** Tools only this view has (they replace a parent tool of the same name). */
  own?: readonly Tool[];
}

const NOT_INHERITED = new Set(['delegate_task', 'todo_write', 'exit_plan_mode']);

export class ToolView extends ToolRegistry {
  private readonly own: Map<string, Tool>;

  constructor(
    private readonly parent: ToolRegistry,
    private readonly options: ViewOptions,
  ) {
    super();
    this.own = new Map((options.own ?? []).map((tool) => [tool.name, tool]));
  }

  allows(name: string): boolean {
    // The parent's filter is read at each call: the whitelist of the skill active now.
    const tool = this.get(name);
    if (tool && !this.parent.isVisible(tool)) return false;
    if (this.own.has(name)) return true;
    // The parent's own delegate_task is never inherited (depth is the view's `own` tool's business),
    // nor todo_write: the todo list is the parent session's plan, not a child's scratchpad; nor
    // exit_plan_mode: leaving plan mode is the person's answer to the main agent's plan.
    if (NOT_INHERITED.has(name)) return false;
    return this.options.patterns.some((pattern) =>
      pattern === '@readonly-mcp' ? this.options.isReadOnlyMcp(name) : toolPatternMatches(pattern, name),
    );
  }

  override get(name: string): Tool | undefined {
    return this.own.get(name) ?? this.parent.get(name);
  }

  /** A tool of a server still starting: waited for as the parent waits for it. */
  override async arrival(name: string, signal: AbortSignal): Promise<Tool | undefined> {
    return this.get(name) ?? ((await this.parent.arrival(name, signal)) && this.get(name));
  }

  override list(): Tool[] {
    const inherited = this.parent.list().filter((tool) => !this.own.has(tool.name) && this.allows(tool.name));
    return [...inherited, ...this.own.values()];
  }

  override isVisible(tool: Tool): boolean {
    return this.allows(tool.name);
  }
}
