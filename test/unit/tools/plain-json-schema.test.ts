/**
 * plain-json-schema.ts gives what zod's converter gives, key for key and in order: every tool made
 * through toolArguments here is checked both ways (the schemas are recorded as the tools are made).
 */
import { describe, expect, it, vi } from 'vitest';
import type * as Arguments from '../../../src/tools/arguments.js';
import * as z from '../../../src/util/schema.js';

const made = vi.hoisted(() => [] as { tool: string; define: () => unknown; open: boolean }[]);

vi.mock('../../../src/tools/arguments.js', async (importOriginal) => {
  const original = await importOriginal<typeof Arguments>();
  return {
    ...original,
    toolArguments: (tool: string, define: () => never, options: Arguments.ToolArgumentsOptions = {}) => {
      made.push({ tool, define, open: options.open === true });
      return original.toolArguments(tool, define, options);
    },
  };
});

// The fast tier shares modules between files: load the tools afresh so the mock records them.
vi.resetModules();
const { jsonSchemaOf } = await import('../../../src/tools/arguments.js');
const { createBuiltinTools } = await import('../../../src/tools/builtin/index.js');
const { plainJsonSchema } = await import('../../../src/tools/plain-json-schema.js');
const { BackgroundShells } = await import('../../../src/tools/background/shells.js');

describe('plain JSON Schema of tool arguments', () => {
  it("matches zod's converter for every built-in tool", () => {
    createBuiltinTools();
    createBuiltinTools({ background: new BackgroundShells() });
    expect(made.length).toBeGreaterThanOrEqual(10);
    for (const { tool, define, open } of made) {
      const schema = define() as Parameters<typeof jsonSchemaOf>[0];
      // Each one on the cheap path, not zod's converter.
      expect(plainJsonSchema(schema, open ? 'input' : 'output'), tool).toBeDefined();
      expect(JSON.stringify(jsonSchemaOf(schema, open)), tool).toBe(
        JSON.stringify(jsonSchemaOf(schema, open, true)),
      );
    }
  });

  it('covers bounds, enums, nested arrays and the open (input) side', () => {
    const schema = z.object({
      name: z.string().check(z.minLength(1), z.maxLength(9), z.describe('a name')),
      count: z.optional(z.int().check(z.minimum(2), z.maximum(40), z.describe('how many'))),
      any: z.int(),
      seconds: z.optional(z.number().check(z.describe('seconds'))),
      kind: z.enum(['a', 'b']).check(z.describe('kind')),
      items: z
        .array(z.object({ at: z.int().check(z.minimum(0)), flag: z.optional(z.boolean()) }))
        .check(z.minLength(1), z.maxLength(5), z.describe('items')),
    });
    for (const open of [false, true])
      expect(JSON.stringify(jsonSchemaOf(schema, open))).toBe(
        JSON.stringify(jsonSchemaOf(schema, open, true)),
      );
  });

  it("leaves other shapes to zod's converter", () => {
    const schema = z.object({ url: z.url(), either: z.union([z.string(), z.number()]) });
    expect(jsonSchemaOf(schema, false)).toEqual(jsonSchemaOf(schema, false, true));
  });
});
