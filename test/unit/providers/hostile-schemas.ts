/**
 * Tool input schemas a hostile or careless MCP server may send, for the cross-provider schema
 * test: `refused` says whether a converter may decline the tool (it cannot be an object of
 * parameters, or it is too big to send); every other one must convert into an accepted schema.
 */

export interface HostileSchema {
  name: string;
  schema: unknown;
  refused: boolean;
}

function nested(depth: number, wrap: (inner: Record<string, unknown>) => Record<string, unknown>) {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < depth; i++) schema = wrap(schema);
  return schema;
}

const deepObject = nested(10_000, (inner) => ({
  type: 'object',
  properties: { child: inner },
  required: ['child'],
}));
const deepArray = nested(10_000, (inner) => ({ type: 'array', items: inner }));
const deepAnyOf = nested(10_000, (inner) => ({ anyOf: [inner, { type: 'null' }] }));

/** Ten definitions, each with three properties pointing at the next and back at the first. */
const fanOut: Record<string, unknown> = {};
for (let i = 0; i < 10; i++) {
  const next = `#/$defs/D${(i + 1) % 10}`;
  fanOut[`D${i}`] = {
    type: 'object',
    properties: { a: { $ref: next }, b: { $ref: next }, c: { $ref: '#/$defs/D0' } },
  };
}

export const HOSTILE_SCHEMAS: HostileSchema[] = [
  { name: 'empty object', schema: {}, refused: false },
  { name: 'object without properties', schema: { type: 'object' }, refused: false },
  {
    name: 'direct $ref cycle',
    schema: {
      type: 'object',
      properties: { node: { $ref: '#/$defs/Node' } },
      $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } },
    },
    refused: false,
  },
  {
    name: 'three-definition $ref cycle through arrays and anyOf',
    schema: {
      type: 'object',
      properties: { a: { $ref: '#/definitions/A' } },
      definitions: {
        A: { type: 'array', items: { $ref: '#/definitions/B' } },
        B: { anyOf: [{ $ref: '#/definitions/C' }, { type: 'string' }] },
        C: { type: 'object', properties: { back: { $ref: '#/definitions/A' } }, required: ['back'] },
      },
    },
    refused: false,
  },
  {
    name: 'exponential $ref fan-out',
    schema: { type: 'object', properties: { root: { $ref: '#/$defs/D0' } }, $defs: fanOut },
    refused: false,
  },
  {
    name: '$ref to the root',
    schema: { type: 'object', properties: { self: { $ref: '#' } } },
    refused: false,
  },
  {
    name: 'top-level $ref',
    schema: {
      $ref: '#/$defs/Args',
      $defs: { Args: { type: 'object', properties: { q: { type: 'string' } } } },
    },
    refused: false,
  },
  {
    name: 'unresolvable and remote $refs',
    schema: {
      type: 'object',
      properties: {
        a: { $ref: '#/$defs/Missing' },
        b: { $ref: 'https://example.com/schema.json' },
        c: { $ref: 42 },
      },
    },
    refused: false,
  },
  {
    name: 'huge enum (10,000 values)',
    schema: {
      type: 'object',
      properties: { pick: { type: 'string', enum: Array.from({ length: 10_000 }, (_, i) => `v${i}`) } },
    },
    refused: false,
  },
  {
    name: 'mixed-type enums',
    schema: {
      type: 'object',
      properties: {
        mixed: { enum: ['a', 1, true, null, { x: 1 }] },
        numbers: { type: 'integer', enum: [1, 2, 3] },
        nullableStrings: { enum: ['x', null] },
        onlyNull: { enum: [null] },
        empty: { enum: [] },
        objectConst: { const: { deep: [1, 2] } },
        numberConst: { const: 7 },
      },
    },
    refused: false,
  },
  {
    name: 'type arrays',
    schema: {
      type: 'object',
      properties: {
        maybe: { type: ['string', 'null'] },
        several: { type: ['string', 'number', 'boolean', 'null'], minimum: 1 },
        onlyNull: { type: 'null' },
        nullArray: { type: ['null'] },
        unknown: { type: 'date' },
        empty: { type: [] },
      },
    },
    refused: false,
  },
  {
    name: 'keywords Gemini refuses',
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'urn:x',
      $comment: 'c',
      type: 'object',
      additionalProperties: { type: 'string' },
      patternProperties: { '^x-': { type: 'number' } },
      propertyNames: { pattern: '^[a-z]+$' },
      unevaluatedProperties: false,
      dependentRequired: { a: ['b'] },
      if: { properties: { a: { const: 1 } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else, as a server sends it.
      then: { required: ['b'] },
      else: { required: ['c'] },
      not: { required: ['d'] },
      examples: [{ a: 1 }],
      default: {},
      properties: {
        a: { type: 'number', exclusiveMinimum: 0, multipleOf: 2, default: 2, examples: [2] },
        b: {
          type: 'string',
          format: 'uri',
          contentMediaType: 'text/plain',
          readOnly: true,
          deprecated: true,
        },
        c: { type: 'integer', format: 'uint64' },
        d: {
          type: 'array',
          prefixItems: [{ type: 'string' }],
          contains: { type: 'string' },
          uniqueItems: true,
        },
        e: { type: 'string', format: 'enum' },
        f: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
        g: true,
        h: { type: 'object', properties: { x: false } },
      },
      required: ['a', 'zzz', 7],
    },
    refused: false,
  },
  {
    name: 'combinators',
    schema: {
      type: 'object',
      properties: {
        one: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        nullableOne: { oneOf: [{ type: 'null' }, { type: 'object', properties: { k: { type: 'string' } } }] },
        typedAnyOf: { type: 'object', anyOf: [{ required: ['a'] }, { required: ['b'] }] },
        all: {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } } },
            { properties: { b: { type: 'number' } }, required: ['b'] },
          ],
        },
        emptyAnyOf: { anyOf: [] },
        notArray: { anyOf: 'x' },
      },
    },
    refused: false,
  },
  {
    name: '10,000-deep object nesting',
    schema: { type: 'object', properties: { root: deepObject } },
    refused: false,
  },
  {
    name: '10,000-deep array nesting',
    schema: { type: 'object', properties: { root: deepArray } },
    refused: false,
  },
  {
    name: '10,000-deep anyOf nesting',
    schema: { type: 'object', properties: { root: deepAnyOf } },
    refused: false,
  },
  { name: 'top level: string', schema: { type: 'string' }, refused: true },
  { name: 'top level: array', schema: { type: 'array', items: { type: 'string' } }, refused: true },
  {
    name: 'top level: anyOf of objects',
    schema: { anyOf: [{ type: 'object' }, { type: 'object' }] },
    refused: true,
  },
  { name: 'top level: true', schema: true, refused: true },
  { name: 'top level: null', schema: null, refused: true },
  { name: 'top level: a list', schema: [{ type: 'object' }], refused: true },
  {
    name: 'top level: object or null',
    schema: { type: ['object', 'null'], properties: { a: { type: 'string' } } },
    refused: false,
  },
];
