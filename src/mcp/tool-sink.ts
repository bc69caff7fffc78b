/**
 * Where the MCP manager puts its servers' tools: the agent hands it a dynamic tool set of the
 * extension seam (ExtensionSetup.tools.set), so MCP never writes into the tool registry or the
 * policy store itself. A manager nobody handed one (`geekagent mcp …`) keeps names only.
 */
import type { ToolDefinition } from '../permissions/pins.js';
import type { Policy } from '../permissions/types.js';
import type { Tool } from '../tools/types.js';
import type { Catalog } from './catalog.js';
import type { McpConnection } from './connection.js';
import { createResourceTools } from './resources.js';
import { type AdapterOptions, createMcpTool } from './tool-adapter.js';

export interface McpToolSink {
  /** Adds or replaces a tool with its default policy; `pin`: which (server, tool) answers to it now. */
  upsert(tool: Tool, policy: Policy, pin?: { server: string; definition: ToolDefinition }): void;
  remove(name: string): void;
  /** Whether the name is taken (by this manager's tools or any other). */
  has(name: string): boolean;
  /** Servers' tools follow these names in this order (after those ordered before). */
  order(serverNames: readonly string[]): void;
}

/** A sink that only remembers which names it holds (skipped-name warnings stay the same). */
export function namesOnlySink(): McpToolSink {
  const names = new Set<string>();
  return {
    upsert: (tool) => {
      names.add(tool.name);
    },
    remove: (name) => {
      names.delete(name);
    },
    has: (name) => names.has(name),
    order: () => undefined,
  };
}

/**
 * One server's tools (and resource tools) in the sink after a listing: a name another holds is
 * skipped with a warning, one the server no longer lists is removed. Returns what it holds now.
 */
export function syncServerTools(
  tools: McpToolSink,
  connection: McpConnection,
  catalog: Catalog,
  registered: ReadonlySet<string>,
  adapter: AdapterOptions,
): { registered: Set<string>; warnings: string[] } {
  const next = new Set<string>();
  const warnings = [...catalog.warnings];
  for (const info of catalog.tools) {
    if (tools.has(info.modelName) && !registered.has(info.modelName)) {
      warnings.push(`skipped tool "${info.originalName}": the name ${info.modelName} is already taken`);
      continue;
    }
    tools.upsert(createMcpTool(connection, info, adapter), 'ask', {
      server: connection.name,
      definition: info.definition,
    });
    next.add(info.modelName);
  }
  if (connection.offersResources) {
    for (const tool of createResourceTools(connection, { acceptsMedia: adapter.acceptsMedia })) {
      if (next.has(tool.name) || (tools.has(tool.name) && !registered.has(tool.name))) {
        warnings.push(`no ${tool.name} tool: the name is taken by a tool of the same name`);
        continue;
      }
      tools.upsert(tool, 'ask');
      next.add(tool.name);
    }
  }
  for (const name of registered) if (!next.has(name)) tools.remove(name);
  return { registered: next, warnings };
}
