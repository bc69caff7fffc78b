/** The registry's order is the tool list's: built-ins first, then MCP servers in config order, whatever registered first. */
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { Tool } from '../../../src/tools/types.js';

const own = (name: string): Tool => ({
  name,
  description: name,
  parameters: { type: 'object', properties: {} },
  run: async () => 'ok',
});
const mcp = (server: string, tool: string): Tool => ({
  ...own(`mcp_${server}_${tool}`),
  origin: { kind: 'mcp', server, tool },
});
const names = (registry: ToolRegistry) => registry.toProviderTools().map((tool) => tool.name);

describe('ToolRegistry order', () => {
  it('is the same whether MCP tools registered before the built-ins (cached) or after (live)', () => {
    const warm = new ToolRegistry();
    warm.orderServers(['gh', 'demo']);
    warm.register(mcp('demo', 'dice'));
    warm.register(mcp('gh', 'search'));
    warm.register(mcp('gh', 'get'));
    warm.register(own('read'));
    warm.register(own('write'));

    const cold = new ToolRegistry();
    cold.orderServers(['gh', 'demo']);
    cold.register(own('read'));
    cold.register(own('write'));
    cold.register(mcp('gh', 'search'));
    cold.register(mcp('gh', 'get'));
    cold.register(mcp('demo', 'dice'));

    const expected = ['read', 'write', 'mcp_gh_search', 'mcp_gh_get', 'mcp_demo_dice'];
    expect(names(warm)).toEqual(expected);
    expect(names(cold)).toEqual(expected);
    // A re-listing of the same tools keeps their places; a server the config does not name comes last.
    cold.upsert(mcp('gh', 'search'));
    cold.register(mcp('skill', 'x'));
    cold.orderServers(['skill']);
    expect(names(cold)).toEqual([...expected, 'mcp_skill_x']);
  });

  it('sends the tools a deferral ranks last after all others, in rank order', () => {
    const registry = new ToolRegistry();
    registry.orderServers(['gh']);
    for (const tool of [mcp('gh', 'a'), mcp('gh', 'b'), mcp('gh', 'c'), own('read')]) registry.register(tool);
    const loaded = ['mcp_gh_c', 'mcp_gh_a'];
    registry.setDeferFilter(
      (tool) => tool.origin !== undefined && !loaded.includes(tool.name),
      (tool) => (loaded.includes(tool.name) ? loaded.indexOf(tool.name) : undefined),
    );
    expect(names(registry)).toEqual(['read', 'mcp_gh_c', 'mcp_gh_a']);
  });
});
