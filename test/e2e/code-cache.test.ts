/**
 * The launcher keeps the compiled code of its script bundles (issue 18 §Start-up): a print run
 * leaves the core's and the model client's code cache in ~/.geekagent/code-cache, the next run
 * answers the same with them in place, and GEEKAGENT_CODE_CACHE=off keeps the folder out. A
 * corrupted cache is never handed to V8 (issue 25: 16 flipped bytes made every start die), and a
 * start that died reading one is named at the next start, which removes it.
 * (Rejected caches, links and read-only folders: test/unit/cli/code-cache.test.ts.)
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cliFixture } from './harness.js';

// The launcher's own V8 cache is the subject here: on a Node with a compile cache of its own
// (>= 22.1) it is chosen only by name.
const fx = cliFixture({ env: { GEEKAGENT_CODE_CACHE: 'v8' } });
const cacheDir = () => path.join(fx.project.home, '.geekagent', 'code-cache');
const coreCache = () =>
  path.join(cacheDir(), readdirSync(cacheDir()).find((name) => name.startsWith('core.cjs.')) as string);
/** The cache file's header: 16 bytes before V8's data (src/cli/launch/cache-file.ts). */
const HEADER = 16;

describe('code cache', () => {
  it('a print run keeps its compiled code, and the next run answers with it in place', async () => {
    fx.fake.push({ text: 'first answer' });
    const first = await fx.run(['-p', 'hi']);
    expect(first.stdout).toBe('first answer\n');
    const files = readdirSync(cacheDir()).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^core\.cjs\.print\.[0-9a-f]{16}\.[0-9a-f]{8}\.v8$/);
    expect(files[1]).toMatch(/^lib-openai\.cjs\.[0-9a-f]{16}\.[0-9a-f]{8}\.v8$/);
    const stamps = files.map((name) => statSync(path.join(cacheDir(), name)).mtimeMs);

    fx.fake.push({ text: 'second answer' });
    const second = await fx.run(['-p', 'hi again']);
    expect(second.stderr).toBe('');
    expect(second.stdout).toBe('second answer\n');
    // Accepted as they were: a rejected cache would have been written anew.
    expect(readdirSync(cacheDir()).sort()).toEqual(files);
    expect(files.map((name) => statSync(path.join(cacheDir(), name)).mtimeMs)).toEqual(stamps);
  });

  it('`geekagent mcp list` keeps a cache of its own', async () => {
    const run = await fx.run(['mcp', 'list']);
    expect(run.code).toBe(0);
    const files = readdirSync(cacheDir()).sort();
    expect(files).toEqual([
      expect.stringMatching(/^core\.cjs\.mcp\./),
      expect.stringMatching(/^lib-mcp-sdk\.cjs\./),
    ]);
  });

  it('GEEKAGENT_CODE_CACHE=off compiles every time and writes nothing', async () => {
    fx.fake.push({ text: 'uncached' });
    const run = await fx.run(['-p', 'hi'], { env: { GEEKAGENT_CODE_CACHE: 'off' } });
    expect(run.stdout).toBe('uncached\n');
    expect(existsSync(path.join(fx.project.home, '.geekagent', 'code-cache'))).toBe(false);
  });

  it("GEEKAGENT_CODE_CACHE=node loads the bundles through Node's loader: no V8 cache of our own", async () => {
    fx.fake.push({ text: 'through node' });
    const run = await fx.run(['-p', 'hi'], { env: { GEEKAGENT_CODE_CACHE: 'node' } });
    expect(run.stderr).toBe('');
    // The core and, through its require, lib/openai.cjs both ran.
    expect(run.stdout).toBe('through node\n');
    expect(existsSync(cacheDir())).toBe(false);
    // Node's own compile cache (22.1+) is kept beside it; Node 20 has none and keeps nothing.
    const own = path.join(fx.project.home, '.geekagent', 'compile-cache');
    expect(existsSync(own)).toBe('enableCompileCache' in (await import('node:module')));
  });

  it('a cache with 16 flipped bytes is not used: the start answers and the cache is written anew', async () => {
    fx.fake.push({ text: 'first answer' });
    await fx.run(['-p', 'hi']);
    const file = coreCache();
    const bytes = readFileSync(file);
    // Spread over V8's data, as a failing disk or a bad copy would.
    for (let i = 0; i < 16; i++) {
      const at = HEADER + Math.floor(((bytes.length - HEADER) * (i + 0.5)) / 16);
      bytes[at] = (bytes[at] as number) ^ 0xff;
    }
    writeFileSync(file, bytes);

    fx.fake.push({ text: 'second answer' });
    const second = await fx.run(['-p', 'hi again']);
    expect(second.stderr).toBe('');
    expect(second.stdout).toBe('second answer\n');
    expect(second.code).toBe(0);
    const rewritten = readFileSync(file);
    expect(rewritten.equals(bytes)).toBe(false);

    // The new one is good: the third start uses it as it is.
    fx.fake.push({ text: 'third answer' });
    const third = await fx.run(['-p', 'and again']);
    expect(third.stdout).toBe('third answer\n');
    expect(readFileSync(file).equals(rewritten)).toBe(true);
  });

  it('a start that crashes reading a cache is named at the next start, which removes it and recovers', async () => {
    fx.fake.push({ text: 'first answer' });
    await fx.run(['-p', 'hi']);
    const file = coreCache();
    // Bad data behind a checksum that matches it: only V8 can find out, and it dies doing so.
    const bytes = readFileSync(file);
    bytes.fill(0xff, HEADER + 64);
    bytes.writeUInt32LE(crc32(bytes.subarray(HEADER)), 12);
    writeFileSync(file, bytes);
    const crashed = await fx.run(['-p', 'hi again']);
    expect(crashed.code === 0 && crashed.signal === null).toBe(false);
    expect(crashed.stderr).toContain('Fatal error');

    fx.fake.push({ text: 'recovered' });
    const next = await fx.run(['-p', 'once more']);
    expect(next.stdout).toBe('recovered\n');
    expect(next.stderr).toBe(
      `geekagent: an earlier start crashed while loading the code cache ${file}; it was removed and is ` +
        'written anew. If starts keep crashing, set GEEKAGENT_CODE_CACHE=off or delete that folder.\n',
    );
    expect(readFileSync(file).equals(bytes)).toBe(false);
    expect(readdirSync(cacheDir()).filter((name) => name.startsWith('.'))).toEqual([]);
  });
});
