import { describe, expect, it } from 'vitest';
import { normalizeToolSchema, type SchemaResult } from '../../../src/mcp/tool-schema.js';

function okSchema(result: SchemaResult): Record<string, unknown> {
  if (!result.ok) throw new Error(`expected ok, got: ${result.reason}`);
  return result.schema;
}

describe('normalizeToolSchema', () => {
  it('passes a good schema through unchanged', () => {
    const input = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
    const result = normalizeToolSchema(input);
    expect(result).toEqual({ ok: true, schema: input, changes: [] });
  });

  it('uses an empty object schema when there is none', () => {
    const result = normalizeToolSchema(undefined);
    expect(okSchema(result)).toEqual({ type: 'object', properties: {} });
    expect(result.ok && result.changes.length).toBe(1);
  });

  it('adds type "object" when only properties are given', () => {
    const result = normalizeToolSchema({ properties: { a: { type: 'number' } } });
    expect(okSchema(result)).toEqual({ type: 'object', properties: { a: { type: 'number' } } });
    expect(result.ok && result.changes).toContain('added type "object"');
  });

  it('adds properties to an object schema without them', () => {
    expect(okSchema(normalizeToolSchema({ type: 'object' }))).toEqual({ type: 'object', properties: {} });
  });

  it('removes $schema', () => {
    const result = normalizeToolSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {},
    });
    expect(okSchema(result)).toEqual({ type: 'object', properties: {} });
    expect(result.ok && result.changes).toContain('removed $schema');
  });

  it('inlines local $defs and definitions refs, recursively, and drops them', () => {
    const input = {
      type: 'object',
      properties: {
        owner: { $ref: '#/$defs/Person', description: 'who owns it' },
        tags: { type: 'array', items: { $ref: '#/definitions/Tag' } },
      },
      $defs: {
        Person: { type: 'object', properties: { name: { $ref: '#/$defs/Name' } } },
        Name: { type: 'string' },
      },
      definitions: { Tag: { type: 'string', enum: ['a', 'b'] } },
    };
    expect(okSchema(normalizeToolSchema(input))).toEqual({
      type: 'object',
      properties: {
        owner: { type: 'object', properties: { name: { type: 'string' } }, description: 'who owns it' },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
      },
    });
  });

  it('replaces a cyclic ref with {} and notes it', () => {
    const input = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' } },
      $defs: { Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } } } },
    };
    const result = normalizeToolSchema(input);
    expect(okSchema(result)).toEqual({
      type: 'object',
      properties: { root: { type: 'object', properties: { child: {} } } },
    });
    expect(result.ok && result.changes).toContain('cyclic $ref "#/$defs/Node" replaced by {}');
  });

  it('treats a ref to the root as a cycle and an unknown ref as unresolvable', () => {
    const result = normalizeToolSchema({
      type: 'object',
      properties: {
        self: { $ref: '#' },
        gone: { $ref: '#/$defs/Missing' },
        far: { $ref: 'https://x.dev/s.json' },
      },
    });
    expect(okSchema(result)).toEqual({ type: 'object', properties: { self: {}, gone: {}, far: {} } });
    expect(result.ok && result.changes).toEqual(
      expect.arrayContaining([
        'cyclic $ref "#" replaced by {}',
        'unresolvable $ref "#/$defs/Missing" replaced by {}',
        'unresolvable $ref "https://x.dev/s.json" replaced by {}',
      ]),
    );
  });

  it('keeps a property named "definitions" and leaves $ref text inside defaults alone', () => {
    const input = {
      type: 'object',
      properties: { definitions: { type: 'string', default: '{"$ref":"#"}' }, d: { const: { $ref: '#' } } },
    };
    expect(okSchema(normalizeToolSchema(input))).toEqual(input);
  });

  it('fails on refs that fan out past the budget instead of hanging', () => {
    const $defs: Record<string, unknown> = { L0: { type: 'string' } };
    for (let level = 1; level <= 30; level++) {
      $defs[`L${level}`] = {
        type: 'object',
        properties: { a: { $ref: `#/$defs/L${level - 1}` }, b: { $ref: `#/$defs/L${level - 1}` } },
      };
    }
    const result = normalizeToolSchema({ type: 'object', properties: { x: { $ref: '#/$defs/L30' } }, $defs });
    expect(result).toEqual({ ok: false, reason: 'input schema expands past 10000 $refs' });
  });

  it('merges a top-level anyOf of objects: properties unioned, required intersected', () => {
    const result = normalizeToolSchema({
      anyOf: [
        {
          type: 'object',
          properties: { id: { type: 'string' }, name: { type: 'string' } },
          required: ['id', 'name'],
        },
        {
          type: 'object',
          properties: { id: { type: 'string' }, email: { type: 'string' } },
          required: ['id', 'email'],
        },
      ],
    });
    expect(okSchema(result)).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, name: { type: 'string' }, email: { type: 'string' } },
      required: ['id'],
    });
  });

  it('merges a top-level oneOf like anyOf, keeping differing property variants', () => {
    const result = normalizeToolSchema({
      type: 'object',
      properties: { mode: { type: 'string' } },
      oneOf: [
        { properties: { value: { type: 'string' } }, required: ['value'] },
        { properties: { value: { type: 'number' } } },
      ],
    });
    expect(okSchema(result)).toEqual({
      type: 'object',
      properties: { mode: { type: 'string' }, value: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
    });
  });

  it('merges a top-level allOf with required unioned, through refs', () => {
    const result = normalizeToolSchema({
      allOf: [
        { $ref: '#/$defs/Base' },
        { type: 'object', properties: { b: { type: 'number' } }, required: ['b'] },
      ],
      $defs: { Base: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } },
    });
    expect(okSchema(result)).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
  });

  it('cannot represent a top-level anyOf with a non-object alternative', () => {
    const result = normalizeToolSchema({ anyOf: [{ type: 'object', properties: {} }, { type: 'string' }] });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toContain('non-object alternative (type "string")');
  });

  it('refuses a top-level type that is not object', () => {
    expect(normalizeToolSchema({ type: 'string' })).toEqual({
      ok: false,
      reason: 'input schema must describe an object (got type "string")',
    });
    expect(normalizeToolSchema({ type: ['string', 'number'] })).toEqual({
      ok: false,
      reason: 'input schema must describe an object (got type ["string","number"])',
    });
  });

  it('narrows a nullable object type to object', () => {
    expect(okSchema(normalizeToolSchema({ type: ['object', 'null'], properties: {} }))).toEqual({
      type: 'object',
      properties: {},
    });
  });

  it('refuses non-object input', () => {
    expect(normalizeToolSchema(42)).toEqual({
      ok: false,
      reason: 'input schema must be a JSON object (got a number)',
    });
    expect(normalizeToolSchema([])).toEqual({
      ok: false,
      reason: 'input schema must be a JSON object (got an array)',
    });
    expect(normalizeToolSchema({ type: 'object', properties: [] }).ok).toBe(false);
  });

  it('does not mutate its input', () => {
    const input = {
      $schema: 'x',
      anyOf: [{ type: 'object', properties: { a: { $ref: '#/$defs/A' } } }],
      $defs: { A: { type: 'string', enum: ['x'] } },
    };
    const snapshot = structuredClone(input);
    const schema = okSchema(normalizeToolSchema(input));
    expect(input).toEqual(snapshot);
    (schema.properties as Record<string, { enum: string[] }>).a!.enum.push('mutated');
    expect(input).toEqual(snapshot);
  });

  it('keeps a property named __proto__ as a property, and copies lists and defaults', () => {
    const input = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"},"b":{"type":"object","default":{"k":[1]}}},"required":["__proto__","b"]}',
    );
    const schema = okSchema(normalizeToolSchema(input));
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(properties)).toEqual(['__proto__', 'b']);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.hasOwn(properties, '__proto__')).toBe(true);
    expect(schema.required).toEqual(['__proto__', 'b']);
    expect(schema.required).not.toBe(input.required);
    expect(properties.b!.default).toEqual({ k: [1] });
    expect(properties.b!.default).not.toBe(input.properties.b.default);
  });
});
