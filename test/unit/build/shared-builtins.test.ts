/**
 * The bundle plugin that shares one module per default-imported builtin
 * (scripts/bundle-plugins/shared-builtins.mjs): files that `import path from 'node:path'` get the
 * builtin itself, required once, with no per-file copy of its properties (esbuild's __toESM);
 * named imports still work, and a name the builtin lacks fails the build.
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script without types.
import { sharedBuiltins } from '../../../scripts/bundle-plugins/shared-builtins.mjs';

const FILES: Record<string, string> = {
  'entry.js': [
    "import { joined } from './a.js';",
    "import { base, home, same } from './b.js';",
    'export { joined, base, home, same };',
  ].join('\n'),
  'a.js': "import path from 'node:path';\nexport const joined = path.join('a', 'b');\nexport { path };",
  'b.js': [
    "import path, { basename } from 'path';",
    "import os from 'node:os';",
    "import { path as fromA } from './a.js';",
    "export const base = basename('/x/y.txt');",
    'export const home = os.homedir();',
    'export const same = path === fromA;',
  ].join('\n'),
};

async function bundle(files: Record<string, string>) {
  return build({
    entryPoints: ['entry.js'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    minify: true,
    logLevel: 'silent',
    logOverride: { 'import-is-undefined': 'error' },
    plugins: [
      {
        name: 'files',
        setup(b: Parameters<Plugin['setup']>[0]) {
          b.onResolve({ filter: /^\.\/|^entry\.js$/ }, (args) => ({
            path: args.path.replace('./', ''),
            namespace: 'files',
          }));
          b.onLoad({ filter: /.*/, namespace: 'files' }, (args) => ({
            contents: files[args.path],
            loader: 'js',
          }));
        },
      },
      sharedBuiltins,
    ],
  });
}

describe('shared-builtins', () => {
  it('gives every default import the builtin itself, required once, without copying it', async () => {
    const result = await bundle(FILES);
    const code = result.outputFiles[0]?.text ?? '';
    // esbuild's __toESM (a new object from the builtin's prototype, then each property copied).
    expect(code).not.toMatch(/Object\.getPrototypeOf/);
    expect(code.match(/require\("node:path"\)/g)).toHaveLength(1);
    // Only the names imported are read from the builtin.
    expect(code).not.toMatch(/"toNamespacedPath"|"totalmem"/);
    const required: string[] = [];
    const realRequire = createRequire(import.meta.url);
    const recording = (id: string) => {
      required.push(id);
      return realRequire(id);
    };
    const module = { exports: {} as Record<string, unknown> };
    new Function('require', 'module', 'exports', code)(recording, module, module.exports);
    expect(module.exports).toEqual({ joined: 'a/b', base: 'y.txt', home: os.homedir(), same: true });
    expect(required.sort()).toEqual(['node:os', 'node:path']);
  });

  it('fails the build on a name the builtin does not have', async () => {
    const files = {
      ...FILES,
      'a.js':
        "import { joinEverything } from 'node:path';\nexport const joined = joinEverything();\nexport const path = 1;",
    };
    await expect(bundle(files)).rejects.toThrow(/joinEverything/);
  });
});
