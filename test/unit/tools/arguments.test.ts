/** toolArguments: one zod object gives the JSON Schema the model sees and the check before `run`. */
import { describe, expect, it } from 'vitest';
import { toolArguments } from '../../../src/tools/arguments.js';
import { createBuiltinTools } from '../../../src/tools/builtin/index.js';
import { ToolError } from '../../../src/tools/types.js';
import * as z from '../../../src/util/schema.js';

const args = toolArguments('demo', () =>
  z.object({
    path: z.string().check(z.describe('A path.')),
    count: z.optional(z.int().check(z.minimum(0), z.maximum(9))),
    mode: z.optional(z.enum(['a', 'b'])),
    items: z.optional(z.array(z.object({ name: z.string() })).check(z.minLength(1))),
  }),
);

function message(given: Record<string, unknown>): string {
  try {
    args.parse(given);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return (error as Error).message;
  }
  throw new Error('parsed');
}

describe('toolArguments', () => {
  it('gives a closed JSON Schema without $schema or the safe-integer bounds', () => {
    expect(args.parameters).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'A path.' },
        count: { type: 'integer', minimum: 0, maximum: 9 },
        mode: { type: 'string', enum: ['a', 'b'] },
        items: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: { name: { type: 'string' } },
            required: ['name'],
            additionalProperties: false,
          },
        },
      },
      required: ['path'],
      additionalProperties: false,
    });
    expect(toolArguments('none', () => z.object({})).parameters).toEqual({
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
    });
    expect(toolArguments('open', () => z.object({ a: z.string() }), { open: true }).parameters).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    });
  });

  it('returns the typed arguments; null counts as not given, unknown keys are dropped', () => {
    expect(args.parse({ path: 'x', count: null, extra: 1 })).toEqual({ path: 'x' });
    expect(args.parse({ path: 'x', count: 3, mode: 'b' })).toEqual({ path: 'x', count: 3, mode: 'b' });
  });

  it('names the tool, the argument and what came instead', () => {
    expect(message({})).toBe('demo: "path" must be a string (it is missing)');
    expect(message({ path: null })).toBe('demo: "path" must be a string (it is missing)');
    expect(message({ path: ['a'] })).toBe('demo: "path" must be a string (got an array)');
    expect(message({ path: 'x', count: 2.5 })).toBe(
      'demo: "count" must be an integer (got a fractional number)',
    );
    expect(message({ path: 'x', count: -1 })).toBe('demo: "count" must be at least 0');
    expect(message({ path: 'x', count: 10 })).toBe('demo: "count" must be at most 9');
    expect(message({ path: 'x', mode: 'c' })).toBe('demo: "mode" must be one of "a", "b"');
    expect(message({ path: 'x', items: [] })).toBe('demo: "items" must not be empty');
    expect(message({ path: 'x', items: [{ name: 1 }] })).toBe(
      'demo: "items[0].name" must be a string (got a number)',
    );
  });
});

describe('toolArguments is built on first use', () => {
  it('makes the zod object and its JSON Schema once, when first read, not when declared', () => {
    let made = 0;
    const lazy = toolArguments('lazy', () => {
      made++;
      return z.object({ a: z.string() });
    });
    expect(made).toBe(0);
    const first = lazy.parameters;
    expect(lazy.parameters).toBe(first);
    expect(lazy.parse({ a: 'x' })).toEqual({ a: 'x' });
    expect(made).toBe(1);
  });

  it('creating the built-in tools builds no schema: each reads its parameters through a getter', () => {
    const tools = createBuiltinTools();
    expect(tools.length).toBeGreaterThan(5);
    for (const tool of tools) {
      const own = Object.getOwnPropertyDescriptor(tool, 'parameters');
      expect(typeof own?.get, tool.name).toBe('function');
      expect(tool.parameters.type, tool.name).toBe('object');
    }
  });
});
