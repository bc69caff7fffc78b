/**
 * A dynamic tool set of the extension seam (src/extensions/tool-set.ts, `tools.set(owner)` and
 * `ExtensionHost.toolSet`): its tools reach the registry with their default policy and pin, in the
 * order it gives servers; it removes only its own tools, never replaces another's, and one owner
 * has one set however often it asks.
 */
import { describe, expect, it } from 'vitest';
import { ExtensionHost } from '../../../src/extensions/host.js';
import type { DynamicToolSet } from '../../../src/extensions/types.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { Tool } from '../../../src/tools/types.js';

const mcpTool = (name: string, server?: string): Tool =>
  ({
    name,
    description: name,
    parameters: { type: 'object', properties: {} },
    ...(server ? { origin: { kind: 'mcp', server, tool: name } } : {}),
    run: async () => '',
  }) as unknown as Tool;

function setUp() {
  const registry = new ToolRegistry();
  const policies = new Map<string, string>();
  const pins = new Map<string, string>();
  const host = new ExtensionHost({
    registry,
    policies: {
      ensureToolPolicy: (name, policy) => void policies.set(name, policy),
      registerMcpTool: (name, server, definition) => void pins.set(name, `${server}/${definition.name}`),
    },
  });
  return { registry, policies, pins, host };
}

describe('dynamic tool set', () => {
  it('puts tools in the registry with policy and pin, orders servers, and removes only its own', async () => {
    const { registry, policies, pins, host } = setUp();
    let set: DynamicToolSet | undefined;
    await host.add({
      name: 'own',
      setup(setup) {
        setup.tools.add(mcpTool('builtin_like'), 'allow');
        set = setup.tools.set('mcp');
      },
    });
    const tools = set!;
    tools.order(['b', 'a']);
    tools.upsert(mcpTool('mcp_a_one', 'a'), 'ask', { server: 'a', definition: { name: 'one' } });
    tools.upsert(mcpTool('mcp_b_two', 'b'), 'ask');
    expect(registry.list().map((tool) => tool.name)).toEqual(['builtin_like', 'mcp_b_two', 'mcp_a_one']);
    expect(Object.fromEntries(policies)).toEqual({
      builtin_like: 'allow',
      mcp_a_one: 'ask',
      mcp_b_two: 'ask',
    });
    expect(Object.fromEntries(pins)).toEqual({ mcp_a_one: 'a/one' });
    expect(tools.names().sort()).toEqual(['mcp_a_one', 'mcp_b_two']);
    expect(tools.has('builtin_like')).toBe(true);

    // A re-listing replaces its own tool in place; another's tool is neither replaced nor removed.
    tools.upsert(mcpTool('mcp_a_one', 'a'), 'ask');
    expect(() => tools.upsert(mcpTool('builtin_like', 'a'), 'ask')).toThrow(/already registered/);
    tools.remove('builtin_like');
    expect(registry.get('builtin_like')).toBeDefined();
    tools.remove('mcp_b_two');
    expect(registry.list().map((tool) => tool.name)).toEqual(['builtin_like', 'mcp_a_one']);
    expect(tools.names()).toEqual(['mcp_a_one']);
  });

  it('is one set per owner, from setup and from the host alike', async () => {
    const { host } = setUp();
    let fromSetup: DynamicToolSet | undefined;
    await host.add({
      name: 'mcp',
      setup(setup) {
        fromSetup = setup.tools.set('mcp');
      },
    });
    expect(host.toolSet('mcp')).toBe(fromSetup);
    expect(host.toolSet('other')).not.toBe(fromSetup);
  });
});
