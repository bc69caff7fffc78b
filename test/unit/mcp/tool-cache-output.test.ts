/**
 * The tool-list cache's key and file handling, and the bounded folder of whole cut results —
 * with real files in temp folders.
 */
import { mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StdioDefinition } from '../../../src/mcp/config.js';
import { cacheFile, cacheKey, readCachedListing, writeCachedListing } from '../../../src/mcp/tool-cache.js';
import { saveToolOutput } from '../../../src/mcp/tool-output.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'geekagent-cache-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const definition = (env: Record<string, string> = {}): StdioDefinition => ({
  name: 'demo',
  source: 'project',
  file: '/p/.geekagent/mcp.json',
  timeoutMs: 10_000,
  startupTimeoutMs: 30_000,
  disabled: false,
  maxResultTokens: 25_000,
  transport: 'stdio',
  command: 'node',
  args: ['server.mjs'],
  env,
  cwd: '/p',
});

const listing = {
  tools: [
    {
      name: 'dice',
      description: 'Roll',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
    },
  ],
  resources: false,
  prompts: [],
};

describe('tool cache', () => {
  it('keys by the launch config, secret values only hashed; never stores them', async () => {
    const secret = definition({ API_KEY: 'sk-very-secret-value' });
    expect(cacheKey(secret)).not.toBe(cacheKey(definition({ API_KEY: 'another' })));
    expect(cacheKey(secret)).toBe(cacheKey(definition({ API_KEY: 'sk-very-secret-value' })));
    await writeCachedListing(dir, secret, listing);
    const text = await readFile(cacheFile(dir, secret), 'utf8');
    expect(text).not.toContain('sk-very-secret-value');
    expect(await readCachedListing(dir, secret)).toEqual(listing);
    expect(await readCachedListing(dir, definition({ API_KEY: 'another' }))).toBeUndefined();
  });

  it('a broken, foreign or symlinked cache file is no cache', async () => {
    const file = cacheFile(dir, definition());
    await writeFile(file, '{ not json');
    expect(await readCachedListing(dir, definition())).toBeUndefined();
    await writeFile(
      file,
      JSON.stringify({ version: 1, server: 'other', tools: [], resources: false, prompts: [] }),
    );
    expect(await readCachedListing(dir, definition())).toBeUndefined();
    await rm(file);
    const elsewhere = path.join(dir, 'elsewhere.json');
    await writeFile(elsewhere, JSON.stringify({ version: 1, server: 'demo', ...listing }));
    await symlink(elsewhere, file);
    expect(await readCachedListing(dir, definition())).toBeUndefined();
  });
});

describe('kept tool output', () => {
  it('writes the whole text and keeps at most the newest files within the limits', async () => {
    const files: string[] = [];
    for (let i = 0; i < 5; i++) {
      const file = await saveToolOutput(dir, `result ${i}`, { maxFiles: 3, maxBytes: 1_000 });
      const past = new Date(Date.now() - (10 - i) * 1000);
      await utimes(file, past, past);
      files.push(file);
    }
    expect(await readFile(files[4]!, 'utf8')).toBe('result 4');
    const left = (await readdir(path.join(dir, '.geekagent', 'tool-output'))).sort();
    // The folder ignores itself in git: a session leaves no untracked files.
    expect(left).toEqual(['.gitignore', ...files.slice(2).map((file) => path.basename(file))].sort());
    expect(await readFile(path.join(dir, '.geekagent', 'tool-output', '.gitignore'), 'utf8')).toMatch(
      /^\*$/m,
    );
    await saveToolOutput(dir, 'x'.repeat(990), { maxFiles: 50, maxBytes: 1_000 });
    expect(await readdir(path.join(dir, '.geekagent', 'tool-output'))).toHaveLength(3);
  });

  it('refuses a symlinked tool-output folder', async () => {
    await saveToolOutput(dir, 'first');
    await rm(path.join(dir, '.geekagent', 'tool-output'), { recursive: true });
    await symlink(os.tmpdir(), path.join(dir, '.geekagent', 'tool-output'));
    await expect(saveToolOutput(dir, 'second')).rejects.toThrow(/symbolic link/);
  });
});
