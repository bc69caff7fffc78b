// In the core bundle, `import path from 'node:path'` (and the other builtins below) reads one
// shared module instead of a copy per importing file. esbuild turns a default import of a CommonJS
// module into `__toESM(require('node:path'), 1)` in every module that has one, and each call copies
// every property of the builtin onto a new object as a getter: 110 modules import node:path, so a
// `-p` turn made ~2,500 property definitions and ~1 MB of garbage before its first model request
// (~3 ms of CPU, and a young-generation collection); listing node:fs's properties even loads its
// lazily loaded parts. Here the import resolves to a small ES module that requires the builtin once
// and exports it (default) and its plain value properties (named, each read only if imported),
// which esbuild links to directly. A name it lacks (or a getter) fails the build, not the run.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The builtins shared this way: the ones the core imports by default in many modules. */
export const SHARED_BUILTINS = ['path', 'os', 'fs', 'http', 'https', 'process', 'dns/promises'];

const NAMESPACE = 'shared-builtin';
const FILTER = new RegExp(`^(node:)?(${SHARED_BUILTINS.join('|')})$`);

/** The module an import of `name` resolves to. Getters (lazily loading ones among them) are left out. */
export function sharedBuiltinSource(name) {
  const real = require(`node:${name}`);
  const names = Object.entries(Object.getOwnPropertyDescriptors(real))
    .filter(
      ([key, descriptor]) => 'value' in descriptor && /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default',
    )
    .map(([key]) => key);
  return [
    `const real = require(${JSON.stringify(`node:${name}`)});`,
    // Pure, so a name no file imports is never read (node:fs loads parts of itself when read).
    'const pick = (key) => real[key];',
    'export default real;',
    ...names.map((key) => `export const ${key} = /* @__PURE__ */ pick(${JSON.stringify(key)});`),
  ].join('\n');
}

export const sharedBuiltins = {
  name: 'shared-builtins',
  setup(build) {
    build.onResolve({ filter: FILTER }, (args) => {
      // ES imports only: a CommonJS require (a dependency's, or the shared module's own) gets the
      // real builtin, getters and all.
      if (args.kind !== 'import-statement') return undefined;
      return { path: args.path.replace(/^node:/, ''), namespace: NAMESPACE };
    });
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
      contents: sharedBuiltinSource(args.path),
      loader: 'js',
    }));
  },
};
