// In the openai SDK's files, the globals `Headers`, `FormData` and `Response` become the stand-ins
// of src/providers/web-types.ts. Those globals load Node's fetch stack (undici) on first access —
// lazy getters on Node 20, lazy data properties on 22 and 24 (still ~0.8× a whole `node -e 0` on
// Node 24, docs/launcher.md) — and the SDK touches them on every request: it
// builds each request's headers with `new Headers()` and tests every JSON body with
// `instanceof FormData`. Our transport sends the request with node:http, so nothing else needs
// undici. The stand-ins: `Headers` is the light WHATWG Headers (its `instanceof` also accepts a
// real Headers a caller passes); `FormData` and `Response` answer `instanceof` for real instances
// only, without loading undici for values that cannot be one, and `new` builds the real type.
// The patterns the SDK relies on are checked at build time, so an SDK upgrade cannot quietly undo
// this: a missing one fails the build, naming the file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WEB_TYPES = path.join(root, 'src', 'providers', 'web-types.ts');

/** Global → the export of web-types.ts that stands in for it. */
const STAND_INS = { Headers: 'LightHeaders', FormData: 'RealFormData', Response: 'RealResponse' };

/** What must be there (files relative to the package): what loads undici on a chat request today. */
const EXPECTED = {
  'internal/headers.mjs': ['new Headers()'],
  'client.mjs': ['body instanceof FormData'],
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
      for (const [find, replace] of REPLACE[file] ?? []) contents = contents.replace(find, replace);
      const names = Object.keys(STAND_INS).filter((name) => uses(name).test(source));
      if (names.length === 0) return contents === source ? undefined : { contents, loader: 'js' };
      const imports = names.map((name) => `${STAND_INS[name]} as ${name}`).join(', ');
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
