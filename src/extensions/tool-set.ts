/**
 * A dynamic tool set: the tools one owner (an extension: MCP's servers) adds, changes and removes
 * while the agent runs, kept in the one registry with their default policies. The owner never
 * touches the registry or the policy store itself, and a set never replaces another's tool.
 */
import type { ToolDefinition } from '../permissions/pins.js';
import type { Policy } from '../tools/approval.js';
import { DuplicateToolError, type ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/types.js';

/** Which (server, tool) answers to a model-facing name now, and its definition (for pins). */
export interface ToolPin {
  server: string;
  definition: ToolDefinition;
}

export interface DynamicToolSet {
  /** Adds or replaces one of this set's tools; `policy` is its default (configured rules win). */
  upsert(tool: Tool, policy: Policy, pin?: ToolPin): void;
  /** Removes one of this set's tools (another's is left alone). */
  remove(name: string): void;
  /** Whether a tool of this name is registered, this set's or another's. */
  has(name: string): boolean;
  /** The names of this set's tools now. */
  names(): string[];
  /** The order of MCP servers' tools in requests (the registry's `orderServers`). */
  order(serverNames: readonly string[]): void;
  /** How a call to a tool not registered yet waits for it (servers still starting). */
  arrivals?(wait: (name: string, signal: AbortSignal) => Promise<void>): void;
}

export interface ToolSetDeps {
  registry: ToolRegistry;
  policies: {
    ensureToolPolicy(toolName: string, policy: Policy): void;
    registerMcpTool?(modelName: string, server: string, definition: ToolDefinition): void;
  };
}

export function createToolSet(deps: ToolSetDeps, owner: string): DynamicToolSet {
  const { registry, policies } = deps;
  const own = new Set<string>();
  return {
    upsert(tool, policy, pin) {
      if (!own.has(tool.name) && registry.get(tool.name))
        throw new DuplicateToolError(`${owner}: tool ${tool.name} is already registered by another part`);
      if (pin) policies.registerMcpTool?.(tool.name, pin.server, pin.definition);
      policies.ensureToolPolicy(tool.name, policy);
      registry.upsert(tool);
      own.add(tool.name);
    },
    remove(name) {
      if (!own.delete(name)) return;
      registry.unregister(name);
    },
    has: (name) => registry.get(name) !== undefined,
    names: () => [...own],
    order(serverNames) {
      registry.orderServers(serverNames);
    },
    arrivals(wait) {
      registry.setArrivals(wait);
    },
  };
}
