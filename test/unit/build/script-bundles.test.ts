/**
 * `import.meta` in the script bundles (scripts/bundle-plugins/script-bundles.mjs): CommonJS output
 * has none, and esbuild used to empty it silently inside node_modules — fdir's
 * `createRequire(import.meta.url)` became `createRequire(undefined)` and the glob tool threw in the
 * built CLI (issue 25). A bundle's `import.meta.url` is the bundle's own file URL; any other use of
 * `import.meta` fails the build, naming the file.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EMPTY_IMPORT_META_IS_AN_ERROR,
  IMPORT_META_DEFINES,
  scriptWrapper,
  // @ts-expect-error: a build script without types.
} from '../../../scripts/bundle-plugins/script-bundles.mjs';

const dirs: string[] = [];

/** A project whose one dependency's ES module is `source`, and an entry importing it. */
async function project(source: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'script-bundles-'));
  dirs.push(dir);
  const pkg = path.join(dir, 'node_modules', 'dep');
  await mkdir(pkg, { recursive: true });
  await writeFile(path.join(pkg, 'package.json'), JSON.stringify({ name: 'dep', module: 'index.mjs' }));
  await writeFile(path.join(pkg, 'index.mjs'), source);
  await writeFile(path.join(dir, 'entry.mjs'), "export { strict, where } from 'dep';\n");
  return dir;
}

/** Bundled as scripts/bundle.mjs bundles core.cjs. */
const bundle = (dir: string) =>
  build({
    ...scriptWrapper,
    define: IMPORT_META_DEFINES,
    logOverride: EMPTY_IMPORT_META_IS_AN_ERROR,
    entryPoints: [path.join(dir, 'entry.mjs')],
    outfile: path.join(dir, 'dist', 'core.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    mainFields: ['module', 'main'],
    minify: true,
    logLevel: 'silent',
  });

/** Loads a bundle as src/cli/main.ts loads core.cjs: Node's own require. */
async function load(file: string): Promise<Record<string, unknown>> {
  return createRequire(file)(file) as Record<string, unknown>;
}

afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('import.meta in a script bundle', () => {
  it("is the bundle's own file: createRequire(import.meta.url) works, and so do filename and dirname", async () => {
    const dir = await project(
      [
        "import { createRequire } from 'node:module';",
        'const require = createRequire(import.meta.url);',
        'export function strict() { return (function () { return this; })() === undefined; }',
        "export const where = () => ({ url: import.meta.url, filename: import.meta.filename, dirname: import.meta.dirname, path: require.resolve('node:path') });",
      ].join('\n'),
    );
    await bundle(dir);
    const file = path.join(dir, 'dist', 'core.cjs');
    const exports = await load(file);
    expect((exports.where as () => unknown)()).toEqual({
      url: pathToFileURL(file).href,
      filename: file,
      dirname: path.dirname(file),
      path: 'node:path',
    });
    // Still strict, as the ES modules it was built from: the definition does not precede the directive.
    expect((exports.strict as () => boolean)()).toBe(true);
  });

  it('fails the build on any other use, naming the file, rather than leaving it empty', async () => {
    const dir = await project(
      'export const strict = 1; export const where = () => import.meta.resolve("x");\n',
    );
    await expect(bundle(dir)).rejects.toThrow(
      /node_modules\/dep\/index\.mjs:1:\d+: ERROR: "import\.meta" is not available/,
    );
  });
});
