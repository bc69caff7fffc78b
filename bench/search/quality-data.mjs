// The labelled data of the search quality bench: tool definitions and tool queries from
// test/fixtures/search/, and the package READMEs in node_modules with their questions.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'search');
const NM = path.join(ROOT, 'node_modules');
const json = (file) => JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8'));

/** [{ server, name, description, params }], popular servers first, then the real local ones. */
export const loadTools = () => [...json('tools-popular.json'), ...json('tools-real.json')];
export const loadToolQueries = () => json('tool-queries.json');
export const loadDocQueries = () => json('doc-queries.json').queries;

/**
 * Every README at a package root in node_modules, as [{ source, text }] with `source` relative to
 * node_modules. MiniSearch is left out: it is installed for measuring, not a dependency.
 */
export function loadReadmes() {
  const out = [];
  const packages = [];
  for (const name of readdirSync(NM).sort()) {
    if (name.startsWith('.') || name === 'minisearch') continue;
    if (name.startsWith('@'))
      for (const sub of readdirSync(path.join(NM, name)).sort()) packages.push(`${name}/${sub}`);
    else packages.push(name);
  }
  for (const pkg of packages) {
    let files;
    try {
      files = readdirSync(path.join(NM, pkg));
    } catch {
      continue;
    }
    for (const file of files.sort()) {
      if (!/^readme/i.test(file)) continue;
      out.push({ source: `${pkg}/${file}`, text: readFileSync(path.join(NM, pkg, file), 'utf8') });
    }
  }
  return out;
}
