import { describe, expect, it } from 'vitest';
import { createBuiltinTools } from '../../../src/tools/builtin/index.js';
import { makeContext, makeRoot, removeRoot } from './helpers.js';

describe('createBuiltinTools', () => {
  const tools = createBuiltinTools();

  it('returns the nine built-in tools by their public names', () => {
    expect(tools.map((tool) => tool.name)).toEqual([
      'get_current_time',
      'run_shell',
      'ls',
      'read',
      'glob',
      'search',
      'fetch',
      'write',
      'patch',
    ]);
  });

  it('gives every tool an object schema with described properties and valid required names', () => {
    for (const tool of tools) {
      expect(tool.description.length, tool.name).toBeGreaterThan(20);
      const schema = tool.parameters as {
        type: string;
        properties: Record<string, { description?: string }>;
      };
      expect(schema.type, tool.name).toBe('object');
      const required = tool.parameters.required as string[];
      expect(Array.isArray(required), tool.name).toBe(true);
      for (const name of required) expect(Object.keys(schema.properties), tool.name).toContain(name);
      for (const [name, property] of Object.entries(schema.properties)) {
        expect(property.description, `${tool.name}.${name}`).toBeTruthy();
      }
    }
  });

  it('has its own approval prompt exactly for the ask-by-default tools', () => {
    const withPrompt = tools.filter((tool) => tool.describeApproval).map((tool) => tool.name);
    expect(withPrompt).toEqual(['run_shell', 'fetch', 'write', 'patch']);
  });

  it('makes every file tool refuse ../outside', async () => {
    const root = await makeRoot();
    try {
      const { ctx } = makeContext(root);
      const calls: Record<string, Record<string, unknown>> = {
        ls: { path: '../outside' },
        read: { path: '../outside' },
        glob: { pattern: '../outside' },
        search: { pattern: 'x', path: '../outside' },
        write: { path: '../outside', content: 'x' },
        patch: { path: '../outside', hunks: [{ old: 'a', new: 'b' }] },
      };
      for (const [name, args] of Object.entries(calls)) {
        const tool = tools.find((candidate) => candidate.name === name)!;
        await expect(tool.run(args, ctx), name).rejects.toThrow('path outside root: ../outside');
        if (tool.describeApproval) {
          await expect(tool.describeApproval(args, ctx), name).rejects.toThrow(
            'path outside root: ../outside',
          );
        }
      }
    } finally {
      await removeRoot(root);
    }
  });
});
