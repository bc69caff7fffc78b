// What the built CLI was built from: a hash of every file under src/ and of the build scripts.
// `npm run build` writes it to dist/source-stamp.json; the end-to-end tests compare it with the
// tree before they start (test/helpers/fresh-dist.ts), so they never run an older dist/ than src/.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const INPUTS = ['src', 'scripts', 'package-lock.json'];
export const STAMP_FILE = path.join('dist', 'source-stamp.json');

/** `{ "src/a.ts": "<sha1>", … }` for the build's inputs under `root`, sorted by path. */
export function sourceStamp(root) {
  const files = {};
  const visit = (relative) => {
    const full = path.join(root, relative);
    let entries;
    try {
      entries = readdirSync(full, { withFileTypes: true });
    } catch (error) {
      if (error.code !== 'ENOTDIR') throw error;
      files[relative.split(path.sep).join('/')] = createHash('sha1').update(readFileSync(full)).digest('hex');
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name)))
      visit(path.join(relative, entry.name));
  };
  for (const input of INPUTS) visit(input);
  return files;
}

/** The inputs that differ between two stamps (changed, added or removed), sorted. */
export function staleInputs(built, now) {
  const names = new Set([...Object.keys(built), ...Object.keys(now)]);
  return [...names].filter((name) => built[name] !== now[name]).sort();
}
