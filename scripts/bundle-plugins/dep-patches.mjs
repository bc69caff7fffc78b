// Build-time patches of dependencies for start-up (scripts/bundle.mjs applies them to every
// bundle). Every text replacement goes through `replaceCounted`: each named piece must occur
// exactly as often as the patch expects, or the build fails naming the patch, the file and the
// piece. A partial patch is worse than none (the emoji one half-applied leaves `rgiEmojiRegex`
// undefined and the TUI crashing on its first non-ASCII character), so nothing is written unless
// every replacement of one file's variant applied. test/unit/build/dep-patches.test.ts runs each
// patch on the real dependency files. When an upgrade breaks one: read the new file, update the
// pieces (or drop the patch if the dependency fixed the cost), and run that test.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Applies `edits` ({find, replace, count}) to `source`, each `find` required exactly `count` times
 * (default 1); throws naming `patch`, `file` and the piece otherwise.
 */
export function replaceCounted(patch, file, source, edits) {
  let out = source;
  for (const { find, replace, count = 1 } of edits) {
    const seen = out.split(find).length - 1;
    if (seen !== count)
      throw new Error(
        `${patch}: expected ${count} of ${JSON.stringify(find.slice(0, 80))} in ${file}, found ${seen}; the dependency changed — update scripts/bundle-plugins/dep-patches.mjs`,
      );
    out = out.replaceAll(find, () => replace);
  }
  return out;
}

/**
 * Picks the one variant (a list of edits) whose pieces all occur in `source` and applies it
 * counted; none or several matching is an error naming the file.
 */
export function replaceVariant(patch, file, source, variants) {
  const matching = Object.entries(variants).filter(([, edits]) =>
    edits.every(({ find }) => source.includes(find)),
  );
  if (matching.length !== 1)
    throw new Error(
      `${patch}: ${file} matches ${matching.length === 0 ? 'none' : matching.map(([name]) => name).join(' and ')} of the known versions (${Object.keys(variants).join(', ')}); the dependency changed — update scripts/bundle-plugins/dep-patches.mjs`,
    );
  return replaceCounted(patch, file, source, matching[0][1]);
}

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
 * `/^\p{RGI_Emoji}$/v` (Ink 8 and its wrap-ansi share one string-width 8); V8 compiles it on
 * first use in 100–200 ms, which the TUI's first frame paid (its panel and input line are not
 * ASCII). Every RGI emoji holds a pictographic, regional-indicator, skin-tone or keycap code
 * point, so a cheap class test first skips the big pattern for everything else — same widths.
 */
const MAYBE_EMOJI = String.raw`/[\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\u20E3]/u`;
/** string-width 8 tests `rgiEmojiRegex` (string-width 7's emoji-regex call left with Ink 6). */
const STRING_WIDTH_VARIANTS = {
  'string-width 8': [
    { find: 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;', replace: 'let rgiEmojiRegex;' },
    {
      find: 'rgiEmojiRegex.test(segment)',
      replace: `(${MAYBE_EMOJI}.test(segment) && (rgiEmojiRegex ??= /^\\p{RGI_Emoji}$/v).test(segment))`,
    },
  ],
};
export const patchStringWidth = (source, file) =>
  replaceVariant('quick-emoji-check', file, source, STRING_WIDTH_VARIANTS);
export const STRING_WIDTH_FILE = /[\\/]node_modules[\\/](?:.*[\\/])?string-width[\\/]index\.js$/;
export const quickEmojiCheck = {
  name: 'quick-emoji-check',
  setup(build) {
    build.onLoad({ filter: STRING_WIDTH_FILE }, (args) => ({
      contents: patchStringWidth(readFileSync(args.path, 'utf8'), args.path),
      loader: 'js',
    }));
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
const countOf = (source, piece) => source.split(piece).length - 1;
/** The Emscripten glue: its async instantiation (one span) becomes the synchronous one. */
export function patchYogaBinary(source, file) {
  const counts = [YOGA_ASYNC_START, YOGA_ASYNC_END, 'function wa()'].map((piece) => countOf(source, piece));
  const start = source.indexOf(YOGA_ASYNC_START);
  const end = source.indexOf(YOGA_ASYNC_END, start);
  if (counts.some((count) => count !== 1) || end < start)
    throw new Error(
      `yoga-sync: expected the async start, its end and wa() once each in order in ${file}, found ${counts.join('/')}; the dependency changed — update scripts/bundle-plugins/dep-patches.mjs`,
    );
  return source.slice(0, start) + YOGA_SYNC + source.slice(end + YOGA_ASYNC_END.length);
}
export const patchYogaEntry = (source, file) =>
  replaceCounted('yoga-sync', file, source, [{ find: YOGA_ENTRY_AWAIT, replace: YOGA_ENTRY_SYNC }]);
export const YOGA_BINARY_FILE = /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/;
export const YOGA_ENTRY_FILE = /[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/;
export const yogaSync = {
  name: 'yoga-sync',
  setup(build) {
    build.onLoad({ filter: YOGA_BINARY_FILE }, (args) => ({
      contents: patchYogaBinary(readFileSync(args.path, 'utf8'), args.path),
      loader: 'js',
    }));
    build.onLoad({ filter: YOGA_ENTRY_FILE }, (args) => ({
      contents: patchYogaEntry(readFileSync(args.path, 'utf8'), args.path),
      loader: 'js',
    }));
  },
};

/**
 * Ink's reconciler awaits two things at its top level, both only under DEV=true: React DevTools
 * (when react-devtools-core resolves, through `import.meta.resolve`) and its own package.json, to
 * name itself to them. A CommonJS bundle cannot hold a top-level `await`, and react-devtools-core
 * is no dependency of ours: in the bundle it never resolves (as Ink behaves when it is missing),
 * and Ink names itself by its defaults.
 */
const INK_DEVTOOLS_RESOLVE = "        import.meta.resolve('react-devtools-core');";
const INK_DEVTOOLS = "        await import('./devtools.js');";
const INK_PACKAGE = 'const loaded = await loadPackageJson();';
export const patchInkReconciler = (source, file) =>
  replaceCounted('ink-without-top-level-await', file, source, [
    {
      find: INK_DEVTOOLS_RESOLVE,
      replace: "        throw Object.assign(new Error('not bundled'), { code: 'ERR_MODULE_NOT_FOUND' });",
    },
    { find: INK_DEVTOOLS, replace: '        void 0;' },
    { find: INK_PACKAGE, replace: 'const loaded = { name: undefined, version: undefined };' },
  ]);
export const INK_RECONCILER_FILE = /[\\/]ink[\\/]build[\\/]reconciler\.js$/;
export const inkWithoutTopLevelAwait = {
  name: 'ink-without-top-level-await',
  setup(build) {
    build.onLoad({ filter: INK_RECONCILER_FILE }, (args) => ({
      contents: patchInkReconciler(readFileSync(args.path, 'utf8'), args.path),
      loader: 'js',
    }));
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
const SAME_STYLES = [
  'function sameStyles(a, b) {',
  '  if (a === b) return true;',
  '  if (a.length !== b.length) return false;',
  '  for (let k = 0; k < a.length; k++) if (a[k].code !== b[k].code || a[k].endCode !== b[k].endCode) return false;',
  '  return true;',
  '}',
].join('\n');
export const patchStyledChars = (source, file) =>
  `${replaceCounted('same-styles-first', file, source, [
    {
      find: STYLED_CHARS_DIFF,
      replace: `if (!sameStyles(chars[i - 1].styles, char.styles)) ${STYLED_CHARS_DIFF}`,
    },
    { find: STYLED_CHARS_END, replace: 'if (i === chars.length - 1 && char.styles.length > 0) {' },
  ])}\n${SAME_STYLES}\n`;
export const STYLED_CHARS_FILE = /[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]styledChars\.js$/;
export const sameStylesFirst = {
  name: 'same-styles-first',
  setup(build) {
    build.onLoad({ filter: STYLED_CHARS_FILE }, (args) => ({
      contents: patchStyledChars(readFileSync(args.path, 'utf8'), args.path),
      loader: 'js',
    }));
  },
};

/**
 * wrap-ansi with `trim: false` (how Ink wraps every text) keeps the space between two words when
 * the line breaks right there: a line that fills the width exactly makes the next one start with
 * a space (` dog while…`), a ragged left edge in the transcript. The break takes the space's place,
 * as word wrapping does; spaces that start a line (indentation) stay.
 */
const WRAP_BREAK = [
  "\t\t\t\trows.push('');",
  '\t\t\t\trowLength = 0;',
  '\t\t\t}',
  '',
  '\t\t\tif (rowLength > 0 || options.trim === false) {',
].join('\n');
export const patchWrapAnsi = (source, file) =>
  replaceCounted('break-takes-the-space', file, source, [
    {
      find: WRAP_BREAK,
      replace: WRAP_BREAK.replace('\t\t\t}\n\n\t\t\tif (', '\t\t\t} else if ('),
    },
  ]);
export const WRAP_ANSI_FILE = /[\\/]node_modules[\\/]wrap-ansi[\\/]index\.js$/;
export const breakTakesTheSpace = {
  name: 'break-takes-the-space',
  setup(build) {
    build.onLoad({ filter: WRAP_ANSI_FILE }, (args) => ({
      contents: patchWrapAnsi(readFileSync(args.path, 'utf8'), args.path),
      loader: 'js',
    }));
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
/** Each of these entry files picks its build with one `process.env.NODE_ENV` test. */
export const patchReactEntry = (source, file, build = reactBuild) =>
  replaceCounted('fixed-react-build', file, source, [
    { find: 'process.env.NODE_ENV', replace: JSON.stringify(build) },
  ]);
export const REACT_ENTRY_FILE = /[\\/]node_modules[\\/](?:react|react-reconciler|scheduler)[\\/][^\\/]+\.js$/;
export const fixedReactBuild = {
  name: 'fixed-react-build',
  setup(build) {
    build.onLoad({ filter: REACT_ENTRY_FILE }, (args) => ({
      contents: patchReactEntry(readFileSync(args.path, 'utf8'), args.path),
      loader: 'js',
    }));
  },
};

/**
 * @anthropic-ai/sandbox-runtime finds `bash` (and, on start, bwrap, socat and rg) with `whichSync`,
 * which runs `which` as a child process when not under Bun: one blocking process start inside every
 * confined command's wrap (~5 ms idle, far more on a busy machine — bench row Z1). The same lookup
 * in process: the first PATH entry holding an executable regular file of that name (a name with a
 * slash is checked as given), as `which` answers.
 */
const WHICH_IMPORT = "import { spawnSync } from 'node:child_process';";
const WHICH_SPAWN = `    const result = spawnSync('which', [bin], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 1000,
    });
    if (result.status === 0 && result.stdout) {
        return result.stdout.trim();
    }
    return null;`;
const WHICH_IN_PROCESS = `    const candidates = bin.includes('/')
        ? [bin]
        : (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, bin));
    for (const candidate of candidates) {
        try {
            if (!statSync(candidate).isFile()) continue;
            accessSync(candidate, fsConstants.X_OK);
            return candidate;
        } catch {
            // Not there, or not executable: the next PATH entry.
        }
    }
    return null;`;
export const patchSandboxWhich = (source, file) =>
  replaceCounted('in-process-which', file, source, [
    {
      find: WHICH_IMPORT,
      replace:
        "import { accessSync, constants as fsConstants, statSync } from 'node:fs';\nimport { delimiter, join } from 'node:path';",
    },
    { find: WHICH_SPAWN, replace: WHICH_IN_PROCESS },
  ]);
export const SANDBOX_WHICH_FILE = /[\\/]@anthropic-ai[\\/]sandbox-runtime[\\/]dist[\\/]utils[\\/]which\.js$/;
export const inProcessWhich = {
  name: 'in-process-which',
  setup(build) {
    build.onLoad({ filter: SANDBOX_WHICH_FILE }, (args) => ({
      contents: patchSandboxWhich(readFileSync(args.path, 'utf8'), args.path),
      loader: 'js',
    }));
  },
};
