// In the core bundle, a few Node builtins that a plain `-p` turn does not use before its first
// model request are required on first use instead of when the importing module loads: ~26
// modules import node:crypto (a hash or an id when they act), a dozen node:child_process
// (commander too), and each import made the builtin load at start. Measured on Node 24 (CPU of
// `node -e "require(X)"` over `node -e 0`): crypto ~5 ms, child_process ~2.5, zlib ~1.6,
// readline ~0.9, stream/promises ~0.7. Each import of one of these resolves to a small module
// whose every function export calls the builtin's, which is required at that first call; its
// default export (and what a CommonJS `require` sees) is a proxy of the same. A name that is not a
// function is not exported, so an import of one fails the build instead of loading the builtin.
import { builtinModules, createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The builtins loaded on first use (bare names; `node:` or not, both are caught). */
export const LAZY_BUILTINS = ['crypto', 'child_process', 'zlib', 'readline', 'stream/promises'];

const NAMESPACE = 'lazy-builtin';
const escaped = LAZY_BUILTINS.map((name) => name.replace(/[/]/g, '\\/'));
const FILTER = new RegExp(`^(node:)?(${escaped.join('|')})$`);

/** The module an import of `name` resolves to: a function per function export, loading `name` on first call. */
export function lazyBuiltinSource(name) {
  if (!builtinModules.includes(name)) throw new Error(`lazy-builtins: ${name} is not a Node builtin`);
  const real = require(`node:${name}`);
  const functions = Object.keys(real).filter(
    (key) => typeof real[key] === 'function' && /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default',
  );
  return [
    `let loaded;`,
    `const load = () => (loaded ??= require(${JSON.stringify(`node:${name}`)}));`,
    ...functions.map((key) => `export function ${key}(...args) { return load().${key}(...args); }`),
    `export default new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });`,
  ].join('\n');
}

export const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(build) {
    build.onResolve({ filter: FILTER }, (args) => {
      // The stand-in's own require is of the real builtin.
      if (args.namespace === NAMESPACE) return undefined;
      return { path: args.path.replace(/^node:/, ''), namespace: NAMESPACE };
    });
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
      contents: lazyBuiltinSource(args.path),
      loader: 'js',
    }));
  },
};
