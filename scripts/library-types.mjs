// After `tsc -p tsconfig.library.json` (declarations of the library entry's whole program, into
// dist/.library-types/): ships only the public ones — src/library/index.ts declares `query` with
// the types of src/library/types.ts alone, so those two .d.ts files stand on their own — beside
// dist/library/index.js, and drops the rest (the package's `exports` names dist/library/index.d.ts).
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const emitted = path.join(root, 'dist', '.library-types');
const PUBLIC = ['index.d.ts', 'types.d.ts'];

for (const file of PUBLIC) {
  const from = path.join(emitted, 'library', file);
  // A relative import other than the public files would point at a declaration that is not shipped.
  for (const [, specifier] of readFileSync(from, 'utf8').matchAll(/from '(\.[^']*)'/g))
    if (!PUBLIC.includes(specifier.replace(/^\.\//, '').replace(/\.js$/, '.d.ts')))
      throw new Error(`${file} imports ${specifier}: the library's public types must stand on their own`);
  copyFileSync(from, path.join(root, 'dist', 'library', file));
}
rmSync(emitted, { recursive: true, force: true });
