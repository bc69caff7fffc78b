/**
 * What `rag_add` may read: globs and folders inside the root only, never `.env*`, dot-folders,
 * node_modules or links out of the root; files over 2 MB and binaries skipped with a reason.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFiles, MAX_SOURCE_BYTES, readSourceFile } from '../../../src/rag/sources.js';
import { RagStore } from '../../../src/rag/store.js';

let base: string;
let root: string;
const signal = new AbortController().signal;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'geekagent-rag-sources-'));
  root = path.join(base, 'root');
  const files: Record<string, string> = {
    'docs/a.md': 'a',
    'docs/sub/b.md': 'b',
    'docs/c.txt': 'c',
    'docs/.env': 'SECRET=1',
    'docs/.hidden/d.md': 'd',
    'docs/node_modules/e.md': 'e',
    '.env.local': 'SECRET=2',
  };
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
  await writeFile(path.join(base, 'outside.md'), 'outside');
  await symlink(path.join(base, 'outside.md'), path.join(root, 'docs', 'link.md'));
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('knowledge base sources', () => {
  it('walks a folder without hidden files, node_modules or links', async () => {
    expect(await listFiles('docs', root, signal)).toEqual(['docs/a.md', 'docs/c.txt', 'docs/sub/b.md']);
  });

  it('expands a glob inside the root, dropping links that lead out of it', async () => {
    expect(await listFiles('docs/**/*.md', root, signal)).toEqual(['docs/a.md', 'docs/sub/b.md']);
  });

  it('refuses paths outside the root and protected files', async () => {
    await expect(listFiles('../outside.md', root, signal)).rejects.toThrow(/outside the project root/);
    await expect(listFiles(path.join(base, 'outside.md'), root, signal)).rejects.toThrow(
      /outside the project root/,
    );
    await expect(listFiles('docs/link.md', root, signal)).rejects.toThrow(/outside the project root/);
    await expect(listFiles('.env.local', root, signal)).rejects.toThrow(/protected file/);
  });

  it('skips binaries and files over 2 MB', async () => {
    await writeFile(path.join(root, 'big.txt'), 'x'.repeat(MAX_SOURCE_BYTES + 1));
    await writeFile(path.join(root, 'bin.dat'), Buffer.from([1, 2, 0, 3]));
    expect(await readSourceFile(root, 'big.txt')).toMatchObject({
      kind: 'skipped',
      reason: /over the 2 MB limit/,
    });
    expect(await readSourceFile(root, 'bin.dat')).toEqual({
      kind: 'skipped',
      key: 'bin.dat',
      reason: 'binary',
    });
  });
});

describe('knowledge base store', () => {
  it('names the damaged catalog and the fix instead of a bare parse error', async () => {
    await mkdir(path.join(root, '.geekagent', 'rag'), { recursive: true });
    await writeFile(path.join(root, '.geekagent', 'rag', 'catalog.json'), '{not json');
    await expect(new RagStore(root).search('anything')).rejects.toThrow(
      /catalog\.json is damaged .*remove \.geekagent\/rag\/ and add the sources again/,
    );
  });
});
