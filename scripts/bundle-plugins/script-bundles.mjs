// The CommonJS bundles src/cli/main.ts loads: `core.cjs` (the whole CLI) and the libraries it
// requires lazily (`lib/openai.cjs`, `lib/mcp-sdk.cjs`, …), each a plain CommonJS module that
// Node's own loader reads, and Node's compile cache keeps compiled between runs.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * What `import.meta` means in a script bundle: the bundle file itself, as it means the module
 * file in the ES build. esbuild empties `import.meta` in CommonJS output, so a dependency's
 * `createRequire(import.meta.url)` became `createRequire(undefined)` and threw when first run
 * (fdir, under tinyglobby: the glob tool, issue 25). The url is made on first use (node:url's
 * pathToFileURL), not at every start. Any other use of `import.meta` fails the build
 * (EMPTY_IMPORT_META_IS_AN_ERROR in scripts/bundle.mjs) instead of silently becoming undefined.
 */
const BUNDLE_META =
  "const __bundleMeta = { get url() { return require('node:url').pathToFileURL(__filename).href; } };";
export const IMPORT_META_DEFINES = {
  'import.meta.url': '__bundleMeta.url',
  'import.meta.filename': '__filename',
  'import.meta.dirname': '__dirname',
};

/** esbuild's log override that turns an `import.meta` it would empty into a build error. */
export const EMPTY_IMPORT_META_IS_AN_ERROR = { 'empty-import-meta': 'error' };

/**
 * esbuild options for a bundle: every import() becomes a require() (a library bundle is a
 * CommonJS file read on first use; Node's ES loader would cost its set-up for nothing). `define` is
 * merged with the build's own (IMPORT_META_DEFINES).
 */
export const scriptWrapper = {
  supported: { 'dynamic-import': false },
  // ES modules are strict; the directive first, before the definition.
  banner: { js: `"use strict";${BUNDLE_META}` },
};

/**
 * The libraries kept out of the core, each a bundle of its own (`lib/<name>.cjs`) that the core
 * reads only when a run first needs it: the model clients (one per provider spec's `sdk`, added by
 * `withProviderLibraries`), the MCP SDK, and the TUI's (Ink, React, marked — one React for Ink and
 * our components). Print mode without servers reads none but its provider's, `geekagent mcp …` only
 * the MCP SDK's.
 */
export const LIBRARIES = [
  { name: 'mcp-sdk', packages: ['@modelcontextprotocol/client', '@modelcontextprotocol/server'] },
  { name: 'tui', packages: ['ink', 'react', 'marked'] },
  // The command sandbox (bubblewrap/Seatbelt, its proxies): read when the first command is confined.
  { name: 'sandbox', packages: ['@anthropic-ai/sandbox-runtime'] },
  // The Agent Client Protocol SDK: read only by `geekagent acp`.
  { name: 'acp', packages: ['@agentclientprotocol/sdk'] },
  // Read when a tool or file first needs them, not at every start (~25% of the core's bytes).
  { name: 'html', packages: ['html-to-text'] },
  { name: 'diff', packages: ['diff'] },
  { name: 'glob', packages: ['tinyglobby'] },
  { name: 'ignore', packages: ['ignore'] },
  { name: 'jsonc', packages: ['jsonc-parser'] },
  { name: 'toml', packages: ['smol-toml'] },
];

const packageOf = (specifier) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];

/**
 * For the core: an import of a library resolves to a module that requires the library's bundle and
 * re-exports that specifier's names (read from the real module at build time). The specifiers
 * seen are collected into `used`, to build each library's bundle with exactly those.
 */
export function libraryImports(used, libraries = LIBRARIES) {
  const escaped = libraries.flatMap((lib) => lib.packages).map((name) => name.replace(/[/.]/g, '\\$&'));
  const filter = new RegExp(`^(${escaped.join('|')})(\\/|$)`);
  return {
    name: 'library-imports',
    setup(build) {
      build.onResolve({ filter }, (args) => {
        const library = libraries.find((lib) => lib.packages.includes(packageOf(args.path)));
        if (!library) return undefined;
        if (!used.has(library.name)) used.set(library.name, new Set());
        used.get(library.name).add(args.path);
        return { path: args.path, namespace: 'library', pluginData: library.name };
      });
      // The library's bundle itself: required at run time, beside the core.
      build.onResolve({ filter: /^\.\/lib\/[\w-]+\.cjs$/, namespace: 'library' }, (args) => ({
        path: args.path,
        external: true,
      }));
      build.onLoad({ filter: /.*/, namespace: 'library' }, async (args) => {
        const names = Object.keys(await import(args.path));
        const key = JSON.stringify(args.path);
        const lines = [
          `import * as library from './lib/${args.pluginData}.cjs';`,
          `const exported = library[${key}];`,
          ...names.map((name, i) =>
            name === 'default'
              ? 'export default exported.default;'
              : `const e${i} = exported[${JSON.stringify(name)}];\nexport { e${i} as ${JSON.stringify(name)} };`,
          ),
        ];
        return { contents: lines.join('\n'), loader: 'js', resolveDir: process.cwd() };
      });
    },
  };
}

/** The entry of a library's bundle: each specifier's namespace under its own name. */
export function libraryEntry(specifiers, resolveDir) {
  return {
    contents: [...specifiers]
      .sort()
      .map((specifier) => `export * as ${JSON.stringify(specifier)} from ${JSON.stringify(specifier)};`)
      .join('\n'),
    resolveDir,
    loader: 'js',
    sourcefile: 'library-entry.js',
  };
}

/**
 * The model SDKs' bundles from the providers' specs (`sdk`: bundle name and packages; tsc's
 * dist/providers/specs.js, built before the bundles), first, then `libraries`. Two providers on
 * one SDK share its bundle.
 */
export async function withProviderLibraries(root, libraries = LIBRARIES) {
  const specsFile = path.join(root, 'dist', 'providers', 'specs.js');
  const { PROVIDER_SPECS } = await import(pathToFileURL(specsFile).href);
  const models = [];
  for (const { sdk } of PROVIDER_SPECS) {
    const known = models.find((lib) => lib.name === sdk.bundle);
    if (known) known.packages = [...new Set([...known.packages, ...sdk.packages])];
    else models.push({ name: sdk.bundle, packages: [...sdk.packages] });
  }
  return [...models, ...libraries];
}
