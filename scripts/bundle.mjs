// The second half of `npm run build`: after tsc has written dist/ (one file per module, used by the
// bench and anything importing a layer directly), esbuild bundles the binary into dist/cli/:
//   main.js        the launcher (src/cli/main.ts, CommonJS): checks Node, loads the core and runs it
//   core.cjs       the CLI, TUI included, one CommonJS module
//   lib/*.cjs      the model SDKs, the MCP SDK, the TUI's libraries (Ink, React, marked), …:
//                  modules the core requires when a run first needs them
// A start then reads a few files instead of ~600 modules, and Node's compile cache (enabled by the
// launcher) keeps their compiled code between runs; every dynamic import() in the source stays a
// lazily run part of its bundle. Bench rows S1–S4.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import {
  breakTakesTheSpace,
  englishOnlyZod,
  fixedReactBuild,
  inkWithoutTopLevelAwait,
  inProcessWhich,
  quickEmojiCheck,
  sameStylesFirst,
  yogaSync,
} from './bundle-plugins/dep-patches.mjs';
import { eagerFunctions } from './bundle-plugins/eager-functions.mjs';
import { eagerModuleInits } from './bundle-plugins/eager-inits.mjs';
import { lazyBuiltins } from './bundle-plugins/lazy-builtins.mjs';
import { lightFsPromises } from './bundle-plugins/light-fs-promises.mjs';
import { lightWebGlobals } from './bundle-plugins/light-web-globals.mjs';
import { openaiUsedResources } from './bundle-plugins/openai-resources.mjs';
import {
  EMPTY_IMPORT_META_IS_AN_ERROR,
  IMPORT_META_DEFINES,
  LIBRARIES,
  libraryEntry,
  libraryImports,
  scriptWrapper,
  withProviderLibraries,
} from './bundle-plugins/script-bundles.mjs';
import { sharedBuiltins } from './bundle-plugins/shared-builtins.mjs';
import { profileStart } from './bundle-plugins/start-profile.mjs';
import { STAMP_FILE, sourceStamp } from './source-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist', 'cli');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

for (const stale of ['chunks', 'lib', 'app.mjs', 'app.mjs.map'])
  rmSync(path.join(outdir, stale), { recursive: true, force: true });
// tsc's map describes its own main.js, which the launcher replaces.
rmSync(path.join(outdir, 'main.js.map'), { force: true });

const common = {
  bundle: true,
  platform: 'node',
  target: 'node22.12',
  // ES builds first: jsonc-parser's `main` is a UMD file whose require() calls a bundle cannot follow.
  mainFields: ['module', 'main'],
  tsconfig: path.join(root, 'tsconfig.build.json'),
  // Bundles sit in and below dist/cli/: the version is inlined rather than read relative to a file.
  // React's build is fixed at bundle time (fixedReactBuild); NODE_ENV stays the person's elsewhere.
  define: { __GEEKAGENT_VERSION__: JSON.stringify(version) },
  // Half the bytes to read, and short local names pay too (~20 ms of CPU before the first request,
  // against whitespace and syntax minifying alone, before the code cache). Names are not kept
  // (esbuild's keepNames wraps every function in a call at load); the one class name that showed,
  // the SDK's User-Agent, is set explicitly. The maps (not read at run time) give stacks their
  // names back (`node --enable-source-maps`); GEEKAGENT_UNMINIFIED=1 builds readable bundles.
  minify: process.env.GEEKAGENT_UNMINIFIED !== '1',
  sourcemap: true,
  logLevel: 'warning',
  // CommonJS output has no `import.meta`: each bundle defines what it uses, and anything left
  // (which esbuild would empty, silently in node_modules) fails the build.
  logOverride: EMPTY_IMPORT_META_IS_AN_ERROR,
};
// Each applies where its package is bundled, and is a no-op elsewhere.
const patches = [
  englishOnlyZod,
  quickEmojiCheck,
  yogaSync,
  inkWithoutTopLevelAwait,
  fixedReactBuild,
  sameStylesFirst,
  breakTakesTheSpace,
  inProcessWhich,
  lightWebGlobals,
  openaiUsedResources,
];

// The launcher: node builtins and a few small modules; core.cjs is found beside it. CommonJS
// (dist/cli/package.json says so): an ES module would make Node set up its module loader for
// every run, ~4 ms before the first line runs (measured: an empty .mjs against an empty .cjs).
await build({
  ...common,
  entryPoints: { main: path.join(root, 'src', 'cli', 'main.ts') },
  outdir,
  entryNames: '[name]',
  format: 'cjs',
  // Syntax an old Node still parses, so that it gets the launcher's one line on the version
  // (launch/node-check.ts) instead of a SyntaxError.
  target: 'node12',
  // Only tsc's unbundled build runs app.js; core.cjs is required beside the launcher.
  external: ['./app.js', './core.cjs'],
  define: { ...common.define, 'import.meta.url': '__launcherUrl' },
  banner: { js: "const __launcherUrl = require('node:url').pathToFileURL(__filename).href;" },
});
writeFileSync(
  path.join(outdir, 'package.json'),
  `${JSON.stringify({ '//': 'main.js and the script bundles are CommonJS (scripts/bundle.mjs)', type: 'commonjs' }, null, 2)}\n`,
);

// The core first: the library specifiers it imports make the libraries' entries. The model SDKs'
// come from the providers' specs (tsc has just written dist/providers/specs.js).
const libraries = await withProviderLibraries(root, LIBRARIES);
const used = new Map();
const core = path.join(outdir, 'core.cjs');
await build({
  ...common,
  ...scriptWrapper,
  define: { ...common.define, ...IMPORT_META_DEFINES },
  entryPoints: [path.join(root, 'src', 'cli', 'app.ts')],
  outfile: core,
  format: 'cjs',
  // Ink loads it only under DEV=true (React DevTools); it is not a dependency.
  external: ['react-devtools-core'],
  // lazyBuiltins: builtins a plain turn does not use at start load on first use (the core only);
  // lightFsPromises: node:fs/promises only when a call needs more than node:fs's callbacks;
  // sharedBuiltins: one module per default-imported builtin, not a copy in every importing file.
  // A name their stand-ins lack must fail the build, not be undefined at run time.
  logOverride: { ...common.logOverride, 'import-is-undefined': 'error' },
  plugins: [libraryImports(used, libraries), lazyBuiltins, lightFsPromises, sharedBuiltins, ...patches],
});
// Its module bodies compiled with the file, so that Node's compile cache keeps them (eager-inits.mjs).
// An unminified build writes them as methods, which V8 compiles lazily too; left as they are.
if (common.minify) {
  const eager = eagerModuleInits(readFileSync(core, 'utf8'), readFileSync(`${core}.map`, 'utf8'));
  writeFileSync(core, eager.code);
  writeFileSync(`${core}.map`, eager.map);
}
// One non-ASCII character (a literal in a regex, which esbuild leaves as written) makes V8 hold the
// whole core as a two-byte string and scan twice the bytes on every start: refuse it here.
{
  const text = readFileSync(core, 'utf8');
  const at = text.search(/[\u0080-\uffff]/);
  if (at >= 0)
    throw new Error(
      `bundle: ${core} has a non-ASCII character (${JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))}); write it as a \\u escape in the source`,
    );
}

for (const { name } of libraries) {
  const specifiers = used.get(name);
  if (!specifiers) throw new Error(`bundle: the core imports nothing of ${name}; drop it from LIBRARIES`);
  const outfile = path.join(outdir, 'lib', `${name}.cjs`);
  await build({
    ...common,
    ...scriptWrapper,
    define: { ...common.define, ...IMPORT_META_DEFINES },
    stdin: libraryEntry(specifiers, root),
    outfile,
    format: 'cjs',
    external: ['react-devtools-core'],
    plugins: patches,
  });
}

// Once every bundle is written: the functions a start calls (`-p` turns and a TUI turn), compiled
// with their files so that Node's compile cache keeps them (start-profile.mjs, eager-functions.mjs). Not the launcher: it
// runs before the cache is on. A turn that fails leaves the bundles as they are (they work the same,
// start slower), with one line saying why; under CI it fails the build.
if (common.minify) {
  try {
    const launcher = path.join(outdir, 'main.js');
    const profile = await profileStart(launcher, outdir, path.join(root, 'examples', 'demo-server.mjs'));
    if (!profile.byFile.has(core)) throw new Error('the turns called nothing of core.cjs');
    for (const note of profile.notes) {
      if (process.env.CI === 'true') throw new Error(note);
      console.warn(`bundle: ${note}`);
    }
    for (const [file, ends] of profile.byFile) {
      if (file === launcher) continue;
      const eager = eagerFunctions(readFileSync(file, 'utf8'), readFileSync(`${file}.map`, 'utf8'), ends);
      writeFileSync(file, eager.code);
      writeFileSync(`${file}.map`, eager.map);
    }
  } catch (error) {
    if (process.env.CI === 'true') throw error;
    console.warn(`bundle: the start-up profile was skipped, so starts will be slower: ${error.message}`);
  }
}

// Last, once every bundle is written: what this dist/ was built from (scripts/source-stamp.mjs).
writeFileSync(path.join(root, STAMP_FILE), `${JSON.stringify(sourceStamp(root), null, 1)}\n`);
