// The scale corpus for the search benches: real text files from this machine, in a fixed order —
// every .md/.js/.ts (and .mjs/.cjs/.mts/.cts/.txt) file under the project's node_modules and the
// global npm's, then C headers from /usr/include to reach the cap. Files over 2 MB (the knowledge
// base's per-source limit) and minified bundles are skipped.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SOURCES = [
  { dir: path.join(ROOT, 'node_modules'), ext: /\.(md|markdown|txt|js|mjs|cjs|ts|mts|cts)$/ },
  { dir: '/usr/lib/node_modules', ext: /\.(md|markdown|txt|js|mjs|cjs|ts|mts|cts)$/ },
  { dir: '/usr/include', ext: /\.h$/ },
];
const MAX_FILE = 2 * 1024 * 1024;

/** Files to index, [{ path, size }], up to `capBytes` in total (read them with `readText`). */
export function listCorpus(capBytes = 100 * 1024 * 1024) {
  const files = [];
  let total = 0;
  const walk = (dir, ext) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (total >= capBytes) return;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p, ext);
      else if (e.isFile() && ext.test(e.name) && !/\.min\.js$/.test(e.name)) {
        const size = statSync(p).size;
        if (size === 0 || size > MAX_FILE) continue;
        files.push({ path: p, size });
        total += size;
      }
    }
  };
  for (const { dir, ext } of SOURCES) walk(dir, ext);
  return { files, bytes: total };
}

/** A corpus file's text, or undefined for a binary (a NUL byte). */
export function readText(file) {
  const buf = readFileSync(file);
  return buf.includes(0) ? undefined : buf.toString('utf8');
}
