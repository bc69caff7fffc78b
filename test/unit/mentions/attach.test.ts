/**
 * attachPath against real files: a link inside the root is followed, a hard-linked file and a
 * FIFO are refused (never opened to block), a nested .gitignore's rule and an ignored parent
 * folder count, and completion offers neither an ignored folder nor a link out of the root.
 */
import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attachContext, attachPath } from '../../../src/mentions/attach.js';
import { completePath } from '../../../src/mentions/complete.js';

let base: string;
let root: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'mentions-'));
  root = path.join(base, 'project');
  await mkdir(path.join(root, 'src', 'deep'), { recursive: true });
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const ctx = () => attachContext(root, path.join(base, 'home', '.geekagent'));

describe('attachPath', () => {
  it('follows a link inside the root, refuses a hard-linked file and a FIFO', async () => {
    await writeFile(path.join(root, 'src', 'a.ts'), 'alpha\n');
    await symlink('src/a.ts', path.join(root, 'alias.ts'));
    await writeFile(path.join(base, 'outside.txt'), 'out\n');
    await link(path.join(base, 'outside.txt'), path.join(root, 'hard.txt'));
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    const alias = await attachPath('alias.ts', await ctx());
    expect(alias).toMatchObject({ kind: 'text', summary: '1 line' });
    expect(await attachPath('hard.txt', await ctx())).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('hard links'),
    });
    expect(await attachPath('pipe', await ctx())).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('FIFO'),
    });
    expect(await attachPath('nothing.ts', await ctx())).toEqual({ kind: 'missing' });
  });

  it('notes what a nested .gitignore or an ignored parent folder ignores', async () => {
    await writeFile(path.join(root, '.gitignore'), 'build/\n');
    await writeFile(path.join(root, 'src', '.gitignore'), '*.gen.ts\n');
    await writeFile(path.join(root, 'src', 'deep', 'x.gen.ts'), 'gen\n');
    await mkdir(path.join(root, 'build', 'sub'), { recursive: true });
    await writeFile(path.join(root, 'build', 'sub', 'out.js'), 'out\n');
    await writeFile(path.join(root, 'src', 'deep', 'kept.ts'), 'kept\n');
    expect(await attachPath('src/deep/x.gen.ts', await ctx())).toMatchObject({
      summary: '1 line; ignored by .gitignore',
    });
    expect(await attachPath('build/sub/out.js', await ctx())).toMatchObject({
      summary: '1 line; ignored by .gitignore',
    });
    expect(await attachPath('src/deep/kept.ts', await ctx())).toMatchObject({ summary: '1 line' });
  });
});

describe('completePath', () => {
  it('offers entries of the typed folder, not ignored ones or links out', async () => {
    await writeFile(path.join(root, '.gitignore'), 'dist/\n');
    await mkdir(path.join(root, 'dist'));
    await mkdir(path.join(root, 'docs'));
    await writeFile(path.join(root, 'src', 'a.ts'), 'a\n');
    await symlink(base, path.join(root, 'dout'));
    expect(await completePath('@d', await ctx())).toEqual(['@docs/']);
    expect(await completePath('@src/', await ctx())).toEqual(['@src/a.ts', '@src/deep/']);
    expect(await completePath('@../', await ctx())).toEqual([]);
    expect(await completePath('@.git', await ctx())).toEqual(['@.gitignore']);
  });
});
