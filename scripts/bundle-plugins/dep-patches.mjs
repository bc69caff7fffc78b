// Build-time patches of dependencies for start-up (scripts/bundle.mjs applies them to every
// bundle). Each names the code it expects and fails the build when an upgrade moved it, so a patch
// cannot silently stop applying.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * zod re-exports every message locale (~50 of them, ~300 KB of the bundle) as `z.locales`; we use
 * none but the English default, which zod imports itself. Parsing them cost every start.
 */
export const englishOnlyZod = {
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
export const quickEmojiCheck = {
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
 * yoga-layout (Ink's layout engine) starts with a top-level `await` of its wasm instantiation,
 * which a script bundle cannot hold (core.cjs is one, for V8's code cache). Its Emscripten glue
 * embeds the wasm as a base64 `data:` URL and already has a synchronous decoder for it (`wa()`):
 * this instantiates synchronously from those bytes (Node compiles a module this size on the main
 * thread without complaint), so the runtime is ready when the factory returns, and the entry
 * wraps it without awaiting. The async path it replaces also fetch()ed the `data:` URL, which
 * loaded Node's fetch stack (undici) before the first frame.
 */
const YOGA_ASYNC_START =
  '(function(){return w||"function"!=typeof WebAssembly.instantiateStreaming||ua(H)||"function"!=typeof fetch?c(b):';
const YOGA_ASYNC_END = '().catch(ca);return{}})();';
const YOGA_SYNC = 'a(new WebAssembly.Instance(new WebAssembly.Module(wa()),d));return{}})();';
const YOGA_ENTRY_AWAIT = 'const Yoga = wrapAssembly(await loadYoga());';
const YOGA_ENTRY_SYNC =
  'const yogaRuntime = {}; loadYoga(yogaRuntime); if (!yogaRuntime.calledRun) throw new Error("yoga-layout did not start synchronously"); const Yoga = wrapAssembly(yogaRuntime);';
export const yogaSync = {
  name: 'yoga-sync',
  setup(build) {
    build.onLoad(
      { filter: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ },
      (args) => {
        const source = readFileSync(args.path, 'utf8');
        const start = source.indexOf(YOGA_ASYNC_START);
        const end = source.indexOf(YOGA_ASYNC_END, start);
        if (start < 0 || end < 0 || !source.includes('function wa()'))
          throw new Error(`yoga-sync: nothing to patch in ${args.path}`);
        return {
          contents: source.slice(0, start) + YOGA_SYNC + source.slice(end + YOGA_ASYNC_END.length),
          loader: 'js',
        };
      },
    );
    build.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(YOGA_ENTRY_AWAIT)) throw new Error(`yoga-sync: nothing to patch in ${args.path}`);
      return { contents: source.replace(YOGA_ENTRY_AWAIT, YOGA_ENTRY_SYNC), loader: 'js' };
    });
  },
};

/**
 * Ink's reconciler awaits two imports at its top level, both only under DEV=true (React DevTools,
 * and its own package.json to name itself to them). A script bundle cannot hold a top-level
 * `await`, and react-devtools-core is no dependency of ours: with DEV=true the bundle says so, as
 * Ink does when the package is missing, and goes on.
 */
const INK_DEVTOOLS = "        await import('./devtools.js');";
const INK_PACKAGE = '? await loadPackageJson()';
export const inkWithoutTopLevelAwait = {
  name: 'ink-without-top-level-await',
  setup(build) {
    build.onLoad({ filter: /[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(INK_DEVTOOLS) || !source.includes(INK_PACKAGE))
        throw new Error(`ink-without-top-level-await: nothing to patch in ${args.path}`);
      return {
        contents: source
          .replace(
            INK_DEVTOOLS,
            "        throw Object.assign(new Error('not bundled'), { code: 'ERR_MODULE_NOT_FOUND' });",
          )
          .replace(INK_PACKAGE, '? { name: undefined, version: undefined }'),
        loader: 'js',
      };
    });
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
export const sameStylesFirst = {
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
export const fixedReactBuild = {
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
