/**
 * No file-level import circle in src/: a module and the modules it imports form a tree, so each
 * file can be read, tested and moved without the ones that import it. Reads the same imports as
 * layers.test.ts (TypeScript's pre-processor: static, dynamic, require and import types) and counts
 * `import type` too: a circle of types alone still ties the files together for a reader and for
 * every move, even though it costs nothing at run time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
// TypeScript 7 (the project's compiler) is native, without a JS API: its 5.9 API under an alias.
import ts from 'typescript-api';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/paths.js';

const SRC = path.join(REPO_ROOT, 'src');

/**
 * Circles known and being removed elsewhere, each as its files in the order the finder reports
 * them (starting at the alphabetically first). The features branch removes the trust one (issue
 * 43); the lead deletes this entry when merging it.
 */
const ALLOWED: string[] = [
  'trust/command-declarations.ts ↔ trust/declarations.ts ↔ trust/plugin-declarations.ts ↔ trust/sandbox-declarations.ts ↔ trust/skill-declarations.ts',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The file an import names: `./x.js` is `./x.ts` (or `.tsx`, or `./x/index.ts`) under src/. */
function resolve(from: string, specifier: string, known: Set<string>): string | undefined {
  const base = path.resolve(path.dirname(from), specifier).replace(/\.js$/, '');
  return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((file) => known.has(file));
}

/** Each file under src/ and the files under src/ it imports. */
function importGraph(): Map<string, string[]> {
  const files = sourceFiles(SRC);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map(({ fileName }) => (fileName.startsWith('.') ? resolve(file, fileName, known) : undefined))
      .filter((target): target is string => target !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The strongly connected components of more than one file (or a file importing itself), by
 * Tarjan's algorithm: each is one circle or several knotted together, listed once.
 */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(component.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return found;
}

describe('import circles', () => {
  const graph = importGraph();

  it('finds a circle when there is one', () => {
    // A finder that found nothing would pass everything.
    const knot = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(circles(knot)).toEqual([['a', 'b', 'c'], ['e']]);
    expect([...graph.values()].flat().length).toBeGreaterThan(1000);
  });

  it('has no file-level import circle in src/', () => {
    const found = circles(graph)
      .map((component) => component.map((file) => path.relative(SRC, file)).join(' ↔ '))
      .filter((circle) => !ALLOWED.includes(circle));
    expect(found).toEqual([]);
  });
});
