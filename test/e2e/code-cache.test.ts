/**
 * The launcher keeps the compiled code of its script bundles (issue 18 §Start-up): a print run
 * leaves the core's and the model client's code cache in ~/.geekagent/code-cache, the next run
 * answers the same with them in place, and GEEKAGENT_CODE_CACHE=off keeps the folder out.
 * (Rejected caches, links and read-only folders: test/unit/cli/code-cache.test.ts.)
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFixture } from './harness.js';

const fx = cliFixture();
const cacheDir = () => path.join(fx.project.home, '.geekagent', 'code-cache');

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
});
