// The second half of `npm run build`: after tsc has written dist/ (one file per module, used by the
// bench and anything importing a layer directly), esbuild bundles the binary's entry with its
// dependencies into dist/cli/main.js plus a few chunks in dist/cli/chunks/. Start-up then reads a
// handful of files instead of ~600 modules (measured: `--version` and `-p` several times faster on
// this machine; bench rows S1–S4). Code splitting keeps every dynamic import() a separate chunk,
// so what program.ts and the faces load lazily (Ink, the MCP SDK, the openai client) stays lazy.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { lightWebGlobals } from './bundle-plugins/light-web-globals.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist', 'cli');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

rmSync(path.join(outdir, 'chunks'), { recursive: true, force: true });
// tsc's map describes its own main.js, which the bundle replaces.
rmSync(path.join(outdir, 'main.js.map'), { force: true });

/**
 * zod re-exports every message locale (~50 of them, ~300 KB of the bundle) as `z.locales`; we use
 * none but the English default, which zod imports itself. Parsing them cost every start.
 */
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: path.join(path.dirname(args.importer), '..', 'locales', 'en.js'), namespace: 'zod-locales' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
    }));
  },
};

/**
 * string-width (Ink measures every text node with it) tests each non-ASCII grapheme against
 * `/^\p{RGI_Emoji}$/v`, and wrap-ansi's copy against emoji-regex's pattern; V8 compiles either
 * on first use in 100–200 ms, which the TUI's first frame paid (its panel and input line are not
 * ASCII). Every RGI emoji holds a pictographic, regional-indicator, skin-tone or keycap code
 * point, so a cheap class test first skips the big pattern for everything else — same widths.
 */
const MAYBE_EMOJI = String.raw`/[\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\u20E3]/u`;
const quickEmojiCheck = {
  name: 'quick-emoji-check',
  setup(build) {
    build.onLoad(
      { filter: /[\\/]node_modules[\\/](?:.*[\\/])?string-width[\\/]index\.js$/ },
      async (args) => {
        const source = readFileSync(args.path, 'utf8');
        const patched = source
          .replace('const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;', 'let rgiEmojiRegex;')
          .replace(
            'rgiEmojiRegex.test(segment)',
            `(${MAYBE_EMOJI}.test(segment) && (rgiEmojiRegex ??= /^\\p{RGI_Emoji}$/v).test(segment))`,
          )
          .replace(
            'emojiRegex().test(character)',
            `(${MAYBE_EMOJI}.test(character) && emojiRegex().test(character))`,
          );
        if (patched === source) throw new Error(`quick-emoji-check: nothing to patch in ${args.path}`);
        return { contents: patched, loader: 'js' };
      },
    );
  },
};

/**
 * yoga-layout (Ink's layout engine) embeds its wasm as a base64 `data:` URL, and one of its two
 * load paths fetch()es that URL when `fetch` exists — loading Node's whole fetch stack (undici)
 * and parsing 100 KB of data URL before the first frame. Its other path already decodes a
 * `data:` URL directly; this makes the first one do the same.
 */
const YOGA_FETCH = 'function ya(){return w||"function"!=typeof fetch?';
const yogaWithoutFetch = {
  name: 'yoga-without-fetch',
  setup(build) {
    build.onLoad(
      { filter: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ },
      (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes(YOGA_FETCH))
          throw new Error(`yoga-without-fetch: nothing to patch in ${args.path}`);
        return {
          contents: source.replace(YOGA_FETCH, 'function ya(){return w||ua(H)||"function"!=typeof fetch?'),
          loader: 'js',
        };
      },
    );
  },
};

/**
 * Ink turns every screen row into a string with @alcalzone/ansi-tokenize's `styledCharsToString`,
 * which diffs the styles of each cell against the one before it: three Sets and four arrays per
 * cell, 3,000 cells for a 100×30 screen, at every frame (the first frame paid ~20 ms of it, its
 * code still cold). Most neighbours share their styles, and the diff of equal styles is empty:
 * this skips it then — same output.
 */
const STYLED_CHARS_DIFF = 'ret += ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, char.styles));';
const STYLED_CHARS_END = 'if (i === chars.length - 1) {';
const sameStylesFirst = {
  name: 'same-styles-first',
  setup(build) {
    build.onLoad({ filter: /[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]styledChars\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(STYLED_CHARS_DIFF) || !source.includes(STYLED_CHARS_END))
        throw new Error(`same-styles-first: nothing to patch in ${args.path}`);
      const patched = source
        .replace(STYLED_CHARS_DIFF, `if (!sameStyles(chars[i - 1].styles, char.styles)) ${STYLED_CHARS_DIFF}`)
        .replace(STYLED_CHARS_END, 'if (i === chars.length - 1 && char.styles.length > 0) {')
        .concat(
          '\nfunction sameStyles(a, b) {\n',
          '  if (a === b) return true;\n',
          '  if (a.length !== b.length) return false;\n',
          '  for (let k = 0; k < a.length; k++) if (a[k].code !== b[k].code || a[k].endCode !== b[k].endCode) return false;\n',
          '  return true;\n',
          '}\n',
        );
      return { contents: patched, loader: 'js' };
    });
  },
};

/**
 * React, its reconciler and scheduler pick their build with `process.env.NODE_ENV` at run time, so
 * the TUI's chunk carried both: 1.7 MB, two thirds of it the development reconciler, parsed before
 * the first frame. The bundle keeps the production builds only (`NODE_ENV` is fixed in those
 * packages' files, and esbuild drops the dead branch). `GEEKAGENT_REACT_DEV=1 npm run build`
 * bundles the development builds instead (React's warnings, for working on the TUI).
 */
const reactBuild = process.env.GEEKAGENT_REACT_DEV === '1' ? 'development' : 'production';
const fixedReactBuild = {
  name: 'fixed-react-build',
  setup(build) {
    build.onLoad(
      { filter: /[\\/]node_modules[\\/](?:react|react-reconciler|scheduler)[\\/][^\\/]+\.js$/ },
      (args) => {
        const source = readFileSync(args.path, 'utf8');
        return {
          contents: source.replaceAll('process.env.NODE_ENV', JSON.stringify(reactBuild)),
          loader: 'js',
        };
      },
    );
  },
};

/**
 * Our schemas use zod's tree-shakable `zod/mini` (src/util/schema.ts); the MCP SDK uses the
 * classic API (and zod v3). Shared, zod's whole core would sit in a chunk that every run loads,
 * as the SDK's half needs it all. So the SDK gets a copy of its own (its zod imports resolve into
 * a separate namespace): a run without servers compiles only the parts our schemas use, and the
 * first server connect loads the SDK's copy with the SDK. zod works across copies (its checks are
 * structural: `_zod` traits, not one class identity).
 */
const SDK_ZOD = 'sdk-zod';
const separateSdkZod = {
  name: 'separate-sdk-zod',
  setup(build) {
    const isZod = (file) => /[\\/]node_modules[\\/]zod[\\/]/.test(file);
    const inSdk = (file) => /[\\/]node_modules[\\/]@modelcontextprotocol[\\/]sdk[\\/]/.test(file);
    const resolveInto = async (args) => {
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: { [SDK_ZOD]: true },
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return isZod(resolved.path) ? { path: resolved.path, namespace: SDK_ZOD } : resolved;
    };
    build.onResolve({ filter: /^zod(\/|$)/ }, (args) =>
      args.pluginData?.[SDK_ZOD] || !inSdk(args.importer) ? undefined : resolveInto(args),
    );
    build.onResolve({ filter: /.*/, namespace: SDK_ZOD }, (args) =>
      args.pluginData?.[SDK_ZOD] ? undefined : resolveInto(args),
    );
    build.onLoad({ filter: /.*/, namespace: SDK_ZOD }, (args) => ({
      contents: readFileSync(args.path, 'utf8'),
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

await build({
  entryPoints: { main: path.join(root, 'src', 'cli', 'main.ts') },
  outdir,
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // ES builds first: jsonc-parser's `main` is a UMD file whose require() calls a bundle cannot follow.
  mainFields: ['module', 'main'],
  tsconfig: path.join(root, 'tsconfig.build.json'),
  // Ink loads it only under DEV=true (React DevTools); it is not a dependency.
  external: ['react-devtools-core'],
  // Chunks sit below dist/cli/: the version is inlined rather than read relative to the file.
  // React's build is fixed at bundle time (fixedReactBuild); NODE_ENV stays the person's elsewhere.
  define: { __GEEKAGENT_VERSION__: JSON.stringify(version) },
  // CommonJS dependencies call require(); an ES module has none of its own.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
  plugins: [
    separateSdkZod,
    englishOnlyZod,
    quickEmojiCheck,
    yogaWithoutFetch,
    fixedReactBuild,
    sameStylesFirst,
    lightWebGlobals,
  ],
  // Half the bytes to read and parse at every start (measured: `-p` to first request ~10% sooner).
  // Short local names pay too (~20 ms of CPU before the first request, against whitespace and
  // syntax minifying alone). Names are not kept (esbuild's keepNames wraps every function in a
  // call at load); the one class name that showed, the SDK's User-Agent, is set explicitly. The
  // maps (not read at run time) give stacks their names back (`node --enable-source-maps`);
  // GEEKAGENT_UNMINIFIED=1 builds a readable bundle for profiling.
  minify: process.env.GEEKAGENT_UNMINIFIED !== '1',
  sourcemap: true,
  logLevel: 'warning',
});
