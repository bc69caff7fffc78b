/**
 * The .gitignore files mentions consult are read once per project: a second completion over
 * unchanged files reads none, and an edit, a new nested file or a removal is seen at the next one.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attachContext, attachPath } from '../../../src/mentions/attach.js';
import { completePath } from '../../../src/mentions/complete.js';
import { GitignoreCache } from '../../../src/mentions/ignore-rules.js';

let base: string;
let root: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'mentions-gitignore-'));
  root = path.join(base, 'project');
  await mkdir(path.join(root, 'src'), { recursive: true });
  for (const name of ['a.log', 'b.ts', 'c.tmp']) await writeFile(path.join(root, name), 'x\n');
  await writeFile(path.join(root, 'src', 'gen.ts'), 'x\n');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const userDir = () => path.join(base, 'home', '.geekagent');
const complete = async (word: string, cache: GitignoreCache) =>
  completePath(word, await attachContext(root, userDir(), undefined, cache));

describe('GitignoreCache', () => {
  it('reads an unchanged .gitignore once across completions and turns', async () => {
    await writeFile(path.join(root, '.gitignore'), '*.log\n');
    const cache = new GitignoreCache();
    expect(await complete('@', cache)).toEqual(['@b.ts', '@c.tmp', '@src/']);
    const first = cache.reads;
    expect(first).toBe(1);
    expect(await complete('@', cache)).toEqual(['@b.ts', '@c.tmp', '@src/']);
    const ctx = await attachContext(root, userDir(), undefined, cache);
    expect(await attachPath('a.log', ctx)).toMatchObject({ kind: 'text' });
    expect(await ctx.ignore.ignored(path.join(root, 'a.log'), false)).toBe(true);
    expect(cache.reads).toBe(first);
  });

  it('sees an edit, a new nested file and a removal at the next completion', async () => {
    await writeFile(path.join(root, '.gitignore'), '*.log\n');
    const cache = new GitignoreCache();
    expect(await complete('@', cache)).toEqual(['@b.ts', '@c.tmp', '@src/']);
    await writeFile(path.join(root, '.gitignore'), '# edited\n*.tmp\n');
    expect(await complete('@', cache)).toEqual(['@a.log', '@b.ts', '@src/']);
    expect(cache.reads).toBe(2);

    expect(await complete('@src/', cache)).toEqual(['@src/gen.ts']);
    await writeFile(path.join(root, 'src', '.gitignore'), 'gen.ts\n');
    expect(await complete('@src/', cache)).toEqual([]);

    await rm(path.join(root, '.gitignore'));
    expect(await complete('@', cache)).toEqual(['@a.log', '@b.ts', '@c.tmp', '@src/']);
  });

  it('reads afresh for each look-up without a cache (as before)', async () => {
    await writeFile(path.join(root, '.gitignore'), '*.log\n');
    expect(await completePath('@', await attachContext(root, userDir()))).toEqual([
      '@b.ts',
      '@c.tmp',
      '@src/',
    ]);
  });
});
