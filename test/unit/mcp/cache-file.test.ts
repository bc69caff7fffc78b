// The tool cache file is checked by hand (src/mcp/cache-file.ts) instead of with zod schemas: it
// must accept exactly what those schemas accepted and give what their parse gave, key order
// included (a listing is rewritten when its JSON differs). The schemas are kept here as the reference.
import { describe, expect, it } from 'vitest';
import { cachedEra, cachedHint, cacheFileContent } from '../../../src/mcp/cache-file.js';
import * as z from '../../../src/util/schema.js';

const FileSchema = z.object({
  version: z.literal(1),
  server: z.string(),
  tools: z.array(
    z.looseObject({
      name: z.string(),
      title: z.optional(z.string()),
      description: z.optional(z.string()),
      inputSchema: z.optional(z.unknown()),
    }),
  ),
  resources: z.boolean(),
  prompts: z.array(z.looseObject({ name: z.string() })),
  era: z.optional(z.unknown()),
  toolsHint: z.optional(z.unknown()),
});
const EraSchema = z.union([
  z.object({
    kind: z.literal('modern'),
    version: z.string(),
    discover: z.looseObject({ supportedVersions: z.array(z.string()) }),
  }),
  z.object({ kind: z.literal('legacy'), version: z.optional(z.string()), checkedAt: z.number() }),
]);
const HintSchema = z.object({ ttlMs: z.number(), scope: z.enum(['public', 'private']), at: z.number() });

function same(ours: unknown, schema: z.ZodMiniType, input: unknown) {
  const reference = schema.safeParse(input, { jitless: true });
  const expected = reference.success ? reference.data : undefined;
  expect(ours).toStrictEqual(expected);
  expect(JSON.stringify(ours)).toBe(JSON.stringify(expected));
}

const tool = {
  name: 'word_count',
  description: 'Count words.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execution: { taskSupport: 'forbidden' },
};
const file = (over: Record<string, unknown>) => ({
  version: 1,
  server: 'demo',
  tools: [tool],
  resources: false,
  prompts: [],
  ...over,
});

describe('tool cache file check', () => {
  const files: unknown[] = [
    file({}),
    file({ era: { kind: 'legacy', checkedAt: 1 }, toolsHint: { ttlMs: 5, scope: 'public', at: 2 } }),
    // Keys in another order than the schema's, extra keys, a title after the schema.
    file({ tools: [{ inputSchema: {}, zeta: 1, description: 'd', title: 't', name: 'x', alpha: [1] }] }),
    file({ tools: [{ name: 'no-schema' }], prompts: [{ description: 'p', name: 'greet', arguments: [] }] }),
    JSON.parse(
      '{"version":1,"server":"s","tools":[{"name":"a","__proto__":{"polluted":true}}],"resources":true,"prompts":[]}',
    ),
    file({ extra: 'dropped' }),
    file({ version: 2 }),
    file({ version: '1' }),
    file({ server: 3 }),
    file({ tools: {} }),
    file({ tools: [{ description: 'no name' }] }),
    file({ tools: [{ name: 'a', title: 5 }] }),
    file({ tools: [{ name: 'a', description: null }] }),
    file({ tools: [null] }),
    file({ tools: [[]] }),
    file({ resources: 'yes' }),
    file({ prompts: [{}] }),
    file({ prompts: 'none' }),
    [],
    null,
    'text',
  ];
  files.forEach((input, index) => {
    it(`reads file ${index} as the schema did`, () => {
      const ours = cacheFileContent(input);
      const reference = FileSchema.safeParse(input, { jitless: true });
      expect(ours === undefined).toBe(!reference.success);
      if (!ours || !reference.success) return;
      const { tools, resources, prompts, server, era, toolsHint } = reference.data;
      for (const [mine, theirs] of [
        [ours.tools, tools],
        [ours.prompts, prompts],
        [
          [ours.server, ours.resources, ours.era, ours.toolsHint],
          [server, resources, era, toolsHint],
        ],
      ]) {
        expect(mine).toStrictEqual(theirs);
        expect(JSON.stringify(mine)).toBe(JSON.stringify(theirs));
      }
    });
  });

  const eras: unknown[] = [
    { kind: 'legacy', checkedAt: 1796610821908 },
    { checkedAt: 5, version: '2025-11-25', kind: 'legacy', extra: true },
    { kind: 'legacy', version: 7, checkedAt: 5 },
    { kind: 'legacy', checkedAt: '5' },
    { kind: 'legacy' },
    { kind: 'modern', version: '2026-07-28', discover: { supportedVersions: ['2026-07-28'] } },
    {
      discover: { serverInfo: { name: 's' }, supportedVersions: ['a', 'b'], capabilities: {} },
      version: 'v',
      kind: 'modern',
      dropped: 1,
    },
    { kind: 'modern', version: 'v', discover: { supportedVersions: [1] } },
    { kind: 'modern', version: 'v', discover: [] },
    { kind: 'modern', discover: { supportedVersions: [] } },
    { kind: 'future' },
    undefined,
    null,
    [],
  ];
  eras.forEach((input, index) => {
    it(`reads era ${index} as the schema did`, () => same(cachedEra(input), EraSchema, input));
  });

  const hints: unknown[] = [
    { ttlMs: 1000, scope: 'private', at: 5 },
    { at: 5, scope: 'public', ttlMs: 0, extra: 'dropped' },
    { ttlMs: 1000, scope: 'shared', at: 5 },
    { ttlMs: '1000', scope: 'public', at: 5 },
    { ttlMs: 1000, scope: 'public' },
    undefined,
    [],
  ];
  hints.forEach((input, index) => {
    it(`reads hint ${index} as the schema did`, () => same(cachedHint(input), HintSchema, input));
  });
});
