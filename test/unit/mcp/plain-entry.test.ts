// The zod-free check of the usual stdio entry must accept only what the entry schema accepts, and
// give exactly what its parse gives (the entry `mcp add-json` writes back keeps its key order).
import { describe, expect, it } from 'vitest';
import { checkServerEntry, entrySchemas, MAX_TIMEOUT_MS } from '../../../src/mcp/config-schema.js';
import { plainStdioEntry } from '../../../src/mcp/plain-entry.js';

const zodParse = (entry: Record<string, unknown>) => entrySchemas().stdio.safeParse(entry, { jitless: true });

describe('plain stdio entry check', () => {
  const plain: Record<string, unknown>[] = [
    { command: 'node' },
    { command: 'node', args: ['server.js', '--flag'], startup: 'lazy' },
    // Keys in any order: the result has the schema's.
    {
      startup: 'eager',
      maxResultTokens: 5000,
      excludeTools: ['b*'],
      includeTools: ['a', 'b*'],
      roots: false,
      disabled: true,
      startupTimeout: 1,
      timeout: MAX_TIMEOUT_MS,
      sandbox: true,
      cwd: 'sub',
      env: { B: '2', A: '1', '10': 'ten' },
      args: [],
      command: 'x',
      type: 'stdio',
    },
    { command: 'x', sandbox: false, env: {} },
  ];
  for (const entry of plain) {
    it(`gives what the schema gives for ${JSON.stringify(entry)}`, () => {
      const zod = zodParse(entry);
      expect(zod.success).toBe(true);
      const ours = plainStdioEntry(entry);
      expect(ours).toStrictEqual(zod.data);
      expect(JSON.stringify(ours)).toBe(JSON.stringify(zod.data));
      expect(JSON.stringify(Object.keys((ours as { env?: object }).env ?? {}))).toBe(
        JSON.stringify(Object.keys(zod.data?.env ?? {})),
      );
    });
  }

  const doubtful: Record<string, unknown>[] = [
    { command: '' },
    { args: ['x'] },
    { command: 'x', args: 'x' },
    { command: 'x', args: [1] },
    // biome-ignore lint/suspicious/noSparseArray: a hole is undefined to the schema.
    { command: 'x', args: [, 'a'] },
    { command: 'x', env: { A: 1 } },
    { command: 'x', env: [] },
    { command: 'x', env: JSON.parse('{"__proto__": "x"}') },
    { command: 'x', timeout: 0 },
    { command: 'x', timeout: 1.5 },
    { command: 'x', timeout: MAX_TIMEOUT_MS + 1 },
    { command: 'x', maxResultTokens: 100_000_001 },
    { command: 'x', startup: 'later' },
    { command: 'x', type: 'http' },
    { command: 'x', disabled: 'yes' },
    { command: 'x', cmd: 'y' },
    { command: 'x', args: undefined },
    // Valid, but the schema's to parse: a sandbox with more room.
    { command: 'x', sandbox: { allowWrite: ['out'] } },
  ];
  for (const entry of doubtful) {
    it(`leaves ${JSON.stringify(entry)} to the schema`, () => {
      expect(plainStdioEntry(entry)).toBeUndefined();
    });
  }

  it('still reports problems with the schema messages', () => {
    expect(checkServerEntry('mcp.json', 'a', { command: 'x', timout: 5 })).toEqual({
      ok: false,
      error: expect.stringContaining('unknown key "timout" (did you mean "timeout"?)'),
    });
    expect(checkServerEntry('mcp.json', 'a', { command: 'x', timeout: 0 })).toEqual({
      ok: false,
      error: expect.stringContaining('must be at least 1 (milliseconds)'),
    });
  });
});
