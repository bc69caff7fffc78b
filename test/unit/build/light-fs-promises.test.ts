/**
 * The bundle plugin that keeps node:fs/promises unloaded until a call needs it
 * (scripts/bundle-plugins/light-fs-promises.mjs): bundled code importing from it gets the same
 * results and the same errors through node:fs's callbacks, without Node loading the promise API;
 * `open` (a FileHandle) and a twin given a FileHandle load the real module and work as before.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a build script without types.
import { lightFsPromises, TWINS } from '../../../scripts/bundle-plugins/light-fs-promises.mjs';

const ENTRY = [
  "import { lstat, mkdir, open, readdir, readFile, realpath, rm, stat } from 'node:fs/promises';",
  'export const run = async (dir) => {',
  '  const loaded = () => process.moduleLoadList.includes("NativeModule internal/fs/promises");',
  '  const seen = {};',
  "  await mkdir(dir + '/a/b', { recursive: true });",
  "  seen.text = await readFile(dir + '/file.txt', 'utf8');",
  "  seen.names = (await readdir(dir, { withFileTypes: true })).map((e) => e.name + (e.isDirectory() ? '/' : '')).sort();",
  "  seen.size = (await stat(dir + '/file.txt')).size;",
  "  seen.link = (await lstat(dir + '/link')).isSymbolicLink();",
  "  seen.real = (await realpath(dir + '/link')) === (await realpath(dir)) + '/file.txt';",
  "  seen.error = await readFile(dir + '/missing').catch((e) => [e.code, e.syscall, e.path === dir + '/missing']);",
  "  await rm(dir + '/a', { recursive: true });",
  '  seen.loadedBeforeOpen = loaded();',
  "  const handle = await open(dir + '/file.txt');",
  "  seen.viaHandle = await readFile(handle, 'utf8');",
  '  await handle.close();',
  '  seen.loadedAfterOpen = loaded();',
  '  seen.after = (await readdir(dir)).sort();',
  '  return seen;',
  '};',
].join('\n');

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('light-fs-promises', () => {
  it('answers through node:fs callbacks until a FileHandle is needed', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'light-fs-promises-'));
    dirs.push(dir);
    await writeFile(path.join(dir, 'file.txt'), 'hello');
    const { symlink } = await import('node:fs/promises');
    await symlink(path.join(dir, 'file.txt'), path.join(dir, 'link'));
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'light-fs-promises-out-'));
    dirs.push(outDir);
    const out = path.join(outDir, 'out.cjs');
    await build({
      stdin: { contents: ENTRY, loader: 'js', sourcefile: 'entry.js' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: out,
      logLevel: 'silent',
      logOverride: { 'import-is-undefined': 'error' },
      plugins: [lightFsPromises],
    });
    const script = `require(${JSON.stringify(out)}).run(${JSON.stringify(dir)}).then((seen) => console.log(JSON.stringify(seen)))`;
    const seen = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
    expect(seen).toEqual({
      text: 'hello',
      names: ['a/', 'file.txt', 'link'],
      size: 5,
      link: true,
      real: true,
      error: ['ENOENT', 'open', true],
      loadedBeforeOpen: false,
      viaHandle: 'hello',
      loadedAfterOpen: true,
      after: ['file.txt', 'link'],
    });
  });

  it('names only functions node:fs has', async () => {
    const fs = await import('node:fs');
    for (const twin of Object.values(TWINS) as string[]) {
      const fn = twin.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], fs);
      expect(typeof fn, twin).toBe('function');
    }
  });
});
