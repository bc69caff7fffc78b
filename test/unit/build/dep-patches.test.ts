/**
 * The build-time dependency patches (scripts/bundle-plugins/dep-patches.mjs) on the real files in
 * node_modules: each applies whole to the installed version, a file that changed under it fails
 * the build naming the patch and the file instead of half-applying, and the emoji shortcut
 * measures the same widths as the unpatched string-width copies.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import {
  inProcessWhich,
  patchInkReconciler,
  patchReactEntry,
  patchSandboxWhich,
  patchStringWidth,
  patchStyledChars,
  patchWrapAnsi,
  patchYogaBinary,
  patchYogaEntry,
  quickEmojiCheck,
  replaceCounted,
  // @ts-expect-error: a build script without types.
} from '../../../scripts/bundle-plugins/dep-patches.mjs';

const modules = path.resolve('node_modules');
const INK_STRING_WIDTH = path.join(modules, 'string-width', 'index.js');
const SANDBOX_WHICH = path.join(modules, '@anthropic-ai/sandbox-runtime/dist/utils/which.js');

type Patch = (source: string, file: string) => string;
const REAL_FILES: Array<[string, Patch, string]> = [
  ['string-width 8 (Ink)', patchStringWidth, INK_STRING_WIDTH],
  ['yoga binary', patchYogaBinary, path.join(modules, 'yoga-layout/dist/binaries/yoga-wasm-base64-esm.js')],
  ['yoga entry', patchYogaEntry, path.join(modules, 'yoga-layout/dist/src/index.js')],
  ['ink reconciler', patchInkReconciler, path.join(modules, 'ink/build/reconciler.js')],
  [
    'ansi-tokenize styledChars',
    patchStyledChars,
    path.join(modules, '@alcalzone/ansi-tokenize/build/styledChars.js'),
  ],
  ['react entry', patchReactEntry, path.join(modules, 'react/index.js')],
  ['react-reconciler entry', patchReactEntry, path.join(modules, 'react-reconciler/index.js')],
  ['scheduler entry', patchReactEntry, path.join(modules, 'scheduler/index.js')],
  ['sandbox-runtime which', patchSandboxWhich, SANDBOX_WHICH],
  ['wrap-ansi (Ink)', patchWrapAnsi, path.join(modules, 'wrap-ansi/index.js')],
];

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('dependency patches on the installed files', () => {
  it.each(REAL_FILES)('%s: applies whole', (_name, patch, file) => {
    const source = readFileSync(file, 'utf8');
    const patched = patch(source, file);
    expect(patched).not.toBe(source);
  });

  it('refuses a string-width whose emoji test moved, instead of leaving rgiEmojiRegex undefined', () => {
    const source = readFileSync(INK_STRING_WIDTH, 'utf8');
    const moved = source.replace('rgiEmojiRegex.test(segment)', 'rgiEmojiRegex.exec(segment) !== null');
    expect(() => patchStringWidth(moved, INK_STRING_WIDTH)).toThrow(
      /quick-emoji-check: .*string-width.*matches none/,
    );
  });

  it('wrap-ansi: a break takes the space between two words; indentation stays', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dep-patches-'));
    dirs.push(dir);
    const file = path.join(modules, 'wrap-ansi/index.js');
    const patched = path.join(dir, 'wrap-ansi.mjs');
    // The patched copy beside its own dependencies: imports resolve from node_modules.
    const source = patchWrapAnsi(readFileSync(file, 'utf8'), file).replace(
      /from '([^'.][^']*)'/g,
      (_match: string, name: string) => `from ${JSON.stringify(import.meta.resolve(name))}`,
    );
    await writeFile(patched, source);
    const { default: wrap } = (await import(pathToFileURL(patched).href)) as {
      default: (text: string, columns: number, options: object) => string;
    };
    const { default: original } = (await import('wrap-ansi')) as typeof import('wrap-ansi');
    const options = { trim: false, hard: true };
    // "aaaa bbbb" fills 9 columns exactly: the next word starts the next line.
    expect(original('aaaa bbbb cc', 9, options)).toBe('aaaa bbbb\n cc');
    expect(wrap('aaaa bbbb cc', 9, options)).toBe('aaaa bbbb\ncc');
    expect(wrap('  indented words here', 10, options)).toBe('  indented\nwords here');
    expect(wrap('aaaa bbb cc', 9, options)).toBe(original('aaaa bbb cc', 9, options));
  });

  it('counts each piece: one found twice or not at all fails, naming the patch and the file', () => {
    const edit = [{ find: 'a()', replace: 'b()' }];
    expect(replaceCounted('p', 'f.js', 'x; a();', edit)).toBe('x; b();');
    expect(() => replaceCounted('p', 'f.js', 'a(); a();', edit)).toThrow(
      /p: expected 1 of "a\(\)" in f\.js, found 2/,
    );
    expect(() => replaceCounted('p', 'f.js', 'nothing', edit)).toThrow(/found 0/);
  });

  it('measures the same widths as the unpatched string-width copies', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dep-patches-'));
    dirs.push(dir);
    const bundle = async (file: string, name: string, plugins: (typeof quickEmojiCheck)[]) => {
      const outfile = path.join(dir, `${name}.mjs`);
      await build({
        entryPoints: [file],
        outfile,
        bundle: true,
        format: 'esm',
        platform: 'node',
        plugins,
        logLevel: 'silent',
      });
      return (await import(pathToFileURL(outfile).href)).default as (text: string) => number;
    };
    const samples = [
      'plain',
      'é',
      'a\u0301',
      '中文',
      '👍',
      '👍🏽',
      '🇫🇷',
      '1\uFE0F\u20E3',
      '👨‍👩‍👧',
      '→ ✓ ●',
      '\u001b[31mred\u001b[0m',
    ];
    // Ink 8 and its wrap-ansi share one string-width (8).
    for (const [name, file] of [['ink', INK_STRING_WIDTH]] as const) {
      const patched = await bundle(file, `${name}-patched`, [quickEmojiCheck]);
      const original = await bundle(file, `${name}-plain`, []);
      expect(samples.map(patched)).toEqual(samples.map(original));
    }
  });

  it('finds executables in process as `which` does, without starting it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dep-patches-which-'));
    dirs.push(dir);
    const outfile = path.join(dir, 'which.mjs');
    await build({
      entryPoints: [SANDBOX_WHICH],
      outfile,
      bundle: true,
      format: 'esm',
      platform: 'node',
      plugins: [inProcessWhich],
      logLevel: 'silent',
    });
    const bundled = readFileSync(outfile, 'utf8');
    expect(bundled).not.toContain('spawnSync');
    const { whichSync } = (await import(pathToFileURL(outfile).href)) as {
      whichSync(bin: string): string | null;
    };
    const which = (bin: string): string | null => {
      try {
        return execFileSync('which', [bin], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      } catch {
        return null;
      }
    };
    const notExecutable = path.join(dir, 'plain-file');
    await writeFile(notExecutable, 'x');
    for (const bin of ['sh', 'node', 'bash', 'no-such-tool-here', '/bin/sh', notExecutable, dir])
      expect(whichSync(bin)).toBe(which(bin));
  });
});
