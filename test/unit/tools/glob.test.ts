import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGlobTool } from '../../../src/tools/builtin/glob.js';
import { makeContext, makeRoot, removeRoot, runText } from './helpers.js';

async function touch(root: string, relative: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), relative);
}

describe('glob', () => {
  let root: string;
  const glob = createGlobTool();

  beforeEach(async () => {
    root = await makeRoot();
  });
  afterEach(async () => {
    await removeRoot(root);
  });

  it('returns sorted matches relative to root, skipping node_modules and dotfiles', async () => {
    for (const file of ['src/b.ts', 'src/a.ts', 'top.ts', 'src/readme.md', 'node_modules/pkg/index.ts']) {
      await touch(root, file);
    }
    await touch(root, '.hidden/secret.ts');
    await touch(root, 'src/.dotfile.ts');
    await touch(root, 'src/nested/node_modules/deep.ts');
    const { ctx } = makeContext(root);
    expect(await runText(glob, { pattern: '**/*.ts' }, ctx)).toBe('src/a.ts\nsrc/b.ts\ntop.ts');
    expect(await runText(glob, { pattern: 'src/*.md' }, ctx)).toBe('src/readme.md');
  });

  it('caps the list at 200 and says how many matched', async () => {
    for (let i = 0; i < 250; i++) await touch(root, `files/f${String(i).padStart(3, '0')}.txt`);
    const { ctx } = makeContext(root);
    const lines = (await runText(glob, { pattern: 'files/*.txt' }, ctx)).split('\n');
    expect(lines).toHaveLength(201);
    expect(lines[0]).toBe('files/f000.txt');
    expect(lines[199]).toBe('files/f199.txt');
    expect(lines[200]).toBe('(showing 200 of 250 matches)');
  });

  it('says when nothing matches', async () => {
    const { ctx } = makeContext(root);
    expect(await runText(glob, { pattern: '**/*.rs' }, ctx)).toBe('(no files match **/*.rs)');
  });

  it('reports cancellation instead of a partial list', async () => {
    await touch(root, 'a.ts');
    const controller = new AbortController();
    controller.abort();
    const { ctx } = makeContext(root, { signal: controller.signal });
    await expect(glob.run({ pattern: '**/*.ts' }, ctx)).rejects.toThrow('glob: cancelled');
  });

  it('refuses patterns that leave the root', async () => {
    const { ctx } = makeContext(root);
    for (const pattern of ['../*', '../outside', '/etc/*', 'src/../../*', '{..,src}/*']) {
      await expect(glob.run({ pattern }, ctx)).rejects.toThrow(`path outside root: ${pattern}`);
    }
    await expect(glob.run({}, ctx)).rejects.toThrow('glob: "pattern" must be a string');
  });
});
