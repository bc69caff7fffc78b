/**
 * The launcher's script loader (src/cli/launch/code-cache.ts): a bundle runs with its exports and
 * requires, its compiled code is kept in the cache folder after the run and used by the next one,
 * and a cache that is garbage, a folder that is a link or a read-only folder never break a run.
 */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BundleLoader } from '../../../src/cli/launch/code-cache.js';

let base: string;
let dist: string;
let cacheDir: string;

function bundle(name: string, body: string, hash = '0123456789abcdef'): void {
  const file = path.join(dist, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    `//geekagent-bundle ${hash} ascii\n(function (exports, require, module, __filename, __dirname) {${body}\n})`,
  );
}

const caches = (): string[] => {
  try {
    return readdirSync(cacheDir).sort();
  } catch {
    return [];
  }
};

// Each loader here stands for a run of its own: V8's in-process cache of compiled scripts would
// hand the second one the first one's script without reading the code cache at all.
beforeAll(() => v8.setFlagsFromString('--no-compilation-cache'));
afterAll(() => v8.setFlagsFromString('--compilation-cache'));

beforeEach(() => {
  base = mkdtempSync(path.join(os.tmpdir(), 'geekagent-code-cache-'));
  dist = path.join(base, 'dist');
  cacheDir = path.join(base, 'home', 'cache', 'code');
  bundle(
    'core.cjs',
    `const lib = require('./lib/util.cjs'); const { sep } = require('node:path');
     function twice(x) { return lib.add(x, x); }
     exports.answer = twice(21); exports.sep = sep; exports.twice = twice;`,
  );
  bundle('lib/util.cjs', 'exports.add = (a, b) => a + b;', 'fedcba9876543210');
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

const loader = (variant = 'chat') => new BundleLoader({ dir: dist, cacheDir, variant });

describe('BundleLoader', () => {
  it("runs a bundle with its exports, another bundle's through require, and node's modules", () => {
    const core = loader().load('core.cjs') as { answer: number; sep: string };
    expect(core.answer).toBe(42);
    expect(core.sep).toBe(path.sep);
  });

  it("with nodeCompile, compiles through Node's loader (its compile cache) and writes no cache of its own", () => {
    const run = new BundleLoader({ dir: dist, cacheDir, variant: 'chat', nodeCompile: true });
    const core = run.load('core.cjs') as { answer: number; sep: string };
    expect(core.answer).toBe(42);
    expect(core.sep).toBe(path.sep);
    run.saveCaches();
    expect(caches()).toEqual([]);
  });

  it('keeps each bundle’s compiled code after the run, and the next run uses it as it is', () => {
    const first = loader();
    first.load('core.cjs');
    expect(caches()).toEqual([]);
    first.saveCaches();
    const written = caches();
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(/^core\.cjs\.chat\.0123456789abcdef\.[0-9a-f]{8}\.v8$/);
    expect(written[1]).toMatch(/^lib-util\.cjs\.fedcba9876543210\.[0-9a-f]{8}\.v8$/);
    for (const name of written) expect(statSync(path.join(cacheDir, name)).mode & 0o777).toBe(0o600);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    const before = written.map((name) => statSync(path.join(cacheDir, name)).mtimeMs);

    const second = loader();
    expect((second.load('core.cjs') as { answer: number }).answer).toBe(42);
    second.saveCaches();
    expect(caches()).toEqual(written);
    expect(written.map((name) => statSync(path.join(cacheDir, name)).mtimeMs)).toEqual(before);
  });

  it('keeps one cache per kind of run for the core', () => {
    const chat = loader('chat');
    chat.load('core.cjs');
    chat.saveCaches();
    const mcp = loader('mcp');
    mcp.load('core.cjs');
    mcp.saveCaches();
    expect(caches().filter((name) => name.startsWith('core.cjs.'))).toHaveLength(2);
  });

  it('replaces a cache that is garbage, and the run still works', () => {
    const first = loader();
    first.load('core.cjs');
    first.saveCaches();
    const core = caches().find((name) => name.startsWith('core.cjs.')) as string;
    writeFileSync(path.join(cacheDir, core), Buffer.alloc(4096, 7));
    const second = loader();
    expect((second.load('core.cjs') as { answer: number }).answer).toBe(42);
    second.saveCaches();
    expect(readFileSync(path.join(cacheDir, core)).equals(Buffer.alloc(4096, 7))).toBe(false);
    const third = loader();
    third.load('core.cjs');
    const size = statSync(path.join(cacheDir, core)).size;
    third.saveCaches();
    expect(statSync(path.join(cacheDir, core)).size).toBe(size);
  });

  it('drops the caches of an older build of the same bundle when it writes a new one', () => {
    const first = loader();
    first.load('core.cjs');
    first.saveCaches();
    bundle(
      'core.cjs',
      `const lib = require('./lib/util.cjs'); exports.answer = lib.add(40, 2);`,
      'aaaaaaaaaaaaaaaa',
    );
    const second = loader();
    second.load('core.cjs');
    second.saveCaches();
    const cores = caches().filter((name) => name.startsWith('core.cjs.'));
    expect(cores).toHaveLength(1);
    expect(cores[0]).toContain('.aaaaaaaaaaaaaaaa.');
  });

  it('neither reads nor writes through a cache folder that is a symbolic link', () => {
    const elsewhere = path.join(base, 'elsewhere');
    mkdirSync(elsewhere);
    mkdirSync(path.dirname(cacheDir), { recursive: true });
    symlinkSync(elsewhere, cacheDir);
    const run = loader();
    expect((run.load('core.cjs') as { answer: number }).answer).toBe(42);
    run.saveCaches();
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('runs without writing when the cache folder cannot be written', () => {
    mkdirSync(cacheDir, { recursive: true });
    chmodSync(cacheDir, 0o500);
    try {
      const run = loader();
      expect((run.load('core.cjs') as { answer: number }).answer).toBe(42);
      expect(() => run.saveCaches()).not.toThrow();
      // root may write anyway; either way the run is whole and nothing half-written is left.
      expect(caches().filter((name) => name.endsWith('.tmp'))).toEqual([]);
    } finally {
      chmodSync(cacheDir, 0o700);
    }
  });

  it('runs with no cache folder at all', () => {
    const run = new BundleLoader({ dir: dist, cacheDir: undefined, variant: 'chat' });
    expect((run.load('core.cjs') as { answer: number }).answer).toBe(42);
    run.saveCaches();
    expect(caches()).toEqual([]);
  });

  it('names a file that is not a bundle', () => {
    writeFileSync(path.join(dist, 'core.cjs'), 'module.exports = 1;');
    expect(() => loader().load('core.cjs')).toThrow(/core\.cjs is not a GeekAgent bundle: run npm run build/);
  });
});
