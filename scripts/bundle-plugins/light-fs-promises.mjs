// In the core bundle, `node:fs/promises` is loaded only when a function that needs it is first
// called. Loading it loads Node's promise file handles and, with them, readline, the REPL's history,
// file watchers and directory streams (~2.5 ms of CPU before a `-p` turn's first request, for the
// handful of lstat/readFile calls a start makes). Each function with a callback twin in node:fs of
// the same meaning (TWINS) calls that twin, wrapped in a promise; `realpath` is the native one, as
// the promise API's is. The others (`open`, whose FileHandle is the promise API's own), and a twin
// given a FileHandle instead of a path, call the real module, required at that first call.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** fs/promises name → the node:fs function that does the same with a callback. */
export const TWINS = {
  access: 'access',
  chmod: 'chmod',
  copyFile: 'copyFile',
  link: 'link',
  lstat: 'lstat',
  mkdir: 'mkdir',
  mkdtemp: 'mkdtemp',
  readdir: 'readdir',
  readFile: 'readFile',
  readlink: 'readlink',
  realpath: 'realpath.native',
  rename: 'rename',
  rm: 'rm',
  rmdir: 'rmdir',
  stat: 'stat',
  unlink: 'unlink',
  utimes: 'utimes',
};

const NAMESPACE = 'light-fs-promises';
const FILTER = /^(node:)?fs\/promises$/;

/** The module an import of node:fs/promises resolves to. */
export function lightFsPromisesSource() {
  const real = require('node:fs/promises');
  const functions = Object.keys(real).filter(
    (key) => typeof real[key] === 'function' && /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default',
  );
  const missing = Object.keys(TWINS).filter((key) => !functions.includes(key));
  if (missing.length > 0) throw new Error(`light-fs-promises: node:fs/promises has no ${missing.join(', ')}`);
  return [
    "const fs = require('node:fs');",
    'let loaded;',
    "const load = () => (loaded ??= require('node:fs/promises'));",
    // A path is a string, a Buffer or a URL; a FileHandle (or anything else) goes to the real API.
    'const byPath = (target) => typeof target === "string" || target instanceof URL || Buffer.isBuffer(target);',
    'const twin = (call, name) => (...args) => byPath(args[0])',
    '  ? new Promise((resolve, reject) => call(...args, (error, value) => (error ? reject(error) : resolve(value))))',
    '  : load()[name](...args);',
    ...functions.map((key) =>
      key in TWINS
        ? `export const ${key} = twin((...args) => fs.${TWINS[key]}(...args), ${JSON.stringify(key)});`
        : `export function ${key}(...args) { return load().${key}(...args); }`,
    ),
    'export default new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });',
  ].join('\n');
}

export const lightFsPromises = {
  name: 'light-fs-promises',
  setup(build) {
    build.onResolve({ filter: FILTER }, (args) => {
      // ES imports only: a CommonJS require (a dependency's, or the stand-in's own) gets the real
      // module, `constants` and all.
      if (args.kind !== 'import-statement') return undefined;
      return { path: 'fs/promises', namespace: NAMESPACE };
    });
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, () => ({
      contents: lightFsPromisesSource(),
      loader: 'js',
    }));
  },
};
