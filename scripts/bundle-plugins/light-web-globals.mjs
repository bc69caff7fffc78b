// In the openai SDK's files, the globals `Headers`, `FormData` and `Response` become the stand-ins
// of src/providers/web-types.ts. Those globals load Node's fetch stack (undici) on first access —
// lazy getters on Node 20, lazy data properties on 22 and 24 (still ~0.8× a whole `node -e 0` on
// Node 24, docs/launcher.md) — and the SDK touches them on every request: it
// builds each request's headers with `new Headers()` and tests every JSON body with
// `instanceof FormData`. Our transport sends the request with node:http, so nothing else needs
// undici. The stand-ins: `Headers` is the light WHATWG Headers (its `instanceof` also accepts a
// real Headers a caller passes); `FormData` and `Response` answer `instanceof` for real instances
// only, without loading undici for values that cannot be one, and `new` builds the real type.
// Likewise `globalThis.ReadableStream` in the client (it tests every body against it, and the
// global loads Node's web streams, ~3 ms of CPU before a `-p` turn's first request): a real
// stream still passes, a JSON string is not one.
// The patterns the SDK relies on are checked at build time, so an SDK upgrade cannot quietly undo
// this: a missing one fails the build, naming the file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WEB_TYPES = path.join(root, 'src', 'providers', 'web-types.ts');

/** Global → the export of web-types.ts that stands in for it. */
const STAND_INS = { Headers: 'LightHeaders', FormData: 'RealFormData', Response: 'RealResponse' };

/** Stand-ins for some files only (elsewhere the SDK builds a real stream from the global). */
const FILE_STAND_INS = {
  'client.mjs': { ReadableStream: 'RealReadableStream' },
  'internal/auth/x509-workload-identity-auth.mjs': { ReadableStream: 'RealReadableStream' },
};

/** What must be there (files relative to the package): what loads undici or web streams on a chat request today. */
const EXPECTED = {
  'internal/headers.mjs': ['new Headers()'],
  'client.mjs': ['body instanceof FormData', 'globalThis.ReadableStream && options.body instanceof'],
  'internal/auth/x509-workload-identity-auth.mjs': ['body instanceof globalThis.ReadableStream'],
  'lib/EventStream.mjs': ["'Headers',\n]) {"],
};

/**
 * Text replaced as well (each piece must be there, EXPECTED checks). openai 7's EventStream reads
 * `Object.getOwnPropertyDescriptor(globalThis, 'Headers')` when it loads, to trust the native
 * Headers in event arguments: on Node 22+ that alone loads undici. Its `Headers` is the stand-in
 * here, so no native Headers object reaches its events; the name leaves that list.
 */
const REPLACE = {
  'lib/EventStream.mjs': [["'Headers',\n]) {", ']) {']],
  // Every `globalThis.ReadableStream` of these files: the file's stand-in.
  'client.mjs': [['globalThis.ReadableStream', 'ReadableStream']],
  'internal/auth/x509-workload-identity-auth.mjs': [['globalThis.ReadableStream', 'ReadableStream']],
};

const IN_OPENAI = /[\\/]node_modules[\\/]openai[\\/](.+\.mjs)$/;
/** The name, not as a member (`x.Response`) or part of a longer one; in text too (an unused import is dropped). */
const uses = (name) => new RegExp(`(?<![\\w$.])${name}(?![\\w$])`);

export const lightWebGlobals = {
  name: 'light-web-globals',
  setup(build) {
    const seen = new Set();
    build.onLoad({ filter: IN_OPENAI, namespace: 'file' }, (args) => {
      const file = IN_OPENAI.exec(args.path)[1].replaceAll('\\', '/');
      const source = readFileSync(args.path, 'utf8');
      for (const pattern of EXPECTED[file] ?? []) {
        if (!source.includes(pattern))
          throw new Error(
            `light-web-globals: "${pattern}" is no longer in ${args.path}; check the SDK's use of it`,
          );
      }
      seen.add(file);
      let contents = source;
      for (const [find, replace] of REPLACE[file] ?? []) contents = contents.replaceAll(find, replace);
      const standIns = { ...STAND_INS, ...FILE_STAND_INS[file] };
      const names = Object.keys(standIns).filter((name) => uses(name).test(contents));
      if (names.length === 0) return contents === source ? undefined : { contents, loader: 'js' };
      const imports = names.map((name) => `${standIns[name]} as ${name}`).join(', ');
      // Appended, so the file's lines (and its source map) stay where they were; imports hoist.
      return {
        contents: `${contents}\nimport { ${imports} } from ${JSON.stringify(WEB_TYPES)};\n`,
        loader: 'js',
      };
    });
    build.onEnd(() => {
      if (seen.size === 0) return undefined;
      const missing = Object.keys(EXPECTED).filter((file) => !seen.has(file));
      return {
        errors: missing.map((file) => ({
          text: `light-web-globals: the openai SDK was bundled without node_modules/openai/${file}; check where it builds its Headers and tests FormData now`,
        })),
      };
    });
  },
};
