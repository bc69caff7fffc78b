/**
 * The build's source stamp (scripts/source-stamp.mjs) and the end-to-end tests' check of it: a
 * dist/ built from other sources is refused, naming the changed file and `npm run build`.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a build script without types.
import { STAMP_FILE, sourceStamp } from '../../../scripts/source-stamp.mjs';
import { assertFreshDist } from '../../helpers/fresh-dist.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tree(): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'source-stamp-'));
  dirs.push(root);
  await mkdir(path.join(root, 'src', 'cli'), { recursive: true });
  await mkdir(path.join(root, 'scripts'), { recursive: true });
  await mkdir(path.join(root, 'dist'), { recursive: true });
  await writeFile(path.join(root, 'src', 'cli', 'app.ts'), 'export const a = 1;\n');
  await writeFile(path.join(root, 'scripts', 'bundle.mjs'), '// build\n');
  await writeFile(path.join(root, 'package-lock.json'), '{}\n');
  return root;
}

const build = (root: string) => writeFile(path.join(root, STAMP_FILE), JSON.stringify(sourceStamp(root)));

describe('the source stamp', () => {
  it('passes a dist/ built from the tree as it is', async () => {
    const root = await tree();
    await build(root);
    expect(() => assertFreshDist(root)).not.toThrow();
  });

  it('refuses a changed, an added and a removed source, naming them and the rebuild', async () => {
    const root = await tree();
    await build(root);
    await writeFile(path.join(root, 'src', 'cli', 'app.ts'), 'export const a = 2;\n');
    expect(() => assertFreshDist(root)).toThrow(
      /src\/cli\/app\.ts changed since the last build\): run `npm run build`/,
    );
    await build(root);
    await writeFile(path.join(root, 'src', 'new.ts'), '');
    await rm(path.join(root, 'scripts', 'bundle.mjs'));
    expect(() => assertFreshDist(root)).toThrow(/scripts\/bundle\.mjs, src\/new\.ts changed/);
  });

  it('refuses a dist/ without a stamp', async () => {
    const root = await tree();
    expect(() => assertFreshDist(root)).toThrow(/no dist\/source-stamp\.json .*npm run build/);
  });
});
