/**
 * The bundle plugin that loads some Node builtins on first use (scripts/bundle-plugins/
 * lazy-builtins.mjs): a bundled module importing node:crypto, node:zlib and node:child_process
 * requires none of them when it loads, requires each at its first call, and gets the builtin's
 * own results (named imports, a default import, a CommonJS require).
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import zlib from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script without types.
import { LAZY_BUILTINS, lazyBuiltins } from '../../../scripts/bundle-plugins/lazy-builtins.mjs';

const ENTRY = [
  "import { createHash } from 'node:crypto';",
  "import zlib from 'node:zlib';",
  "import { spawnSync } from 'child_process';",
  "import path from 'node:path';",
  'export const joined = path.join("a", "b");',
  "export const hash = () => createHash('sha256').update('abc').digest('hex');",
  "export const unzipped = (data) => zlib.gunzipSync(data).toString('utf8');",
  'export const hasSpawn = () => typeof spawnSync === "function";',
  "export const requiredRl = () => typeof require('node:readline').createInterface;",
].join('\n');

async function bundled(): Promise<{
  exports: Record<string, (...args: unknown[]) => unknown>;
  required: string[];
}> {
  const result = await build({
    stdin: { contents: ENTRY, loader: 'js', sourcefile: 'entry.js' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'silent',
    plugins: [lazyBuiltins],
  });
  const code = result.outputFiles[0]?.text ?? '';
  const required: string[] = [];
  const realRequire = createRequire(import.meta.url);
  const recording = (id: string) => {
    required.push(id);
    return realRequire(id);
  };
  const module = { exports: {} as Record<string, (...args: unknown[]) => unknown> };
  new Function('require', 'module', 'exports', code)(recording, module, module.exports);
  return { exports: module.exports, required };
}

describe('lazy-builtins', () => {
  it('lists builtins only', () => {
    expect(LAZY_BUILTINS).toContain('crypto');
  });

  it('requires a lazy builtin at its first call, not when the module loads', async () => {
    const { exports, required } = await bundled();
    expect(exports.joined).toBe('a/b');
    expect(required).toEqual(['node:path']);
    expect(exports.hash?.()).toBe(createHash('sha256').update('abc').digest('hex'));
    expect(required).toEqual(['node:path', 'node:crypto']);
    expect(exports.unzipped?.(zlib.gzipSync('hello'))).toBe('hello');
    expect(exports.hasSpawn?.()).toBe(true);
    expect(required).toEqual(['node:path', 'node:crypto', 'node:zlib']);
    // A CommonJS require of one (as commander's) gets its functions too, loading on first call.
    expect(exports.requiredRl?.()).toBe('function');
    expect(required).toEqual(['node:path', 'node:crypto', 'node:zlib']);
  });
});
