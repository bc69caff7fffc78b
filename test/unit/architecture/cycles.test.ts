/**
 * No file-level import circle in src/: a module and the modules it imports form a tree, so each
 * file can be read, tested and moved without the ones that import it. Reads each file's imports
 * with TypeScript's parser: static imports and re-exports, and import types too — a circle of
 * types alone costs nothing at run time, but it still ties the files together for a reader and
 * for every move. A dynamic `import()` does not count: it is a load on demand (a provider's spec
 * loading its implementation on first use, the CLI loading a face), the lazy edge that keeps a
 * registry from loading what it lists.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
// TypeScript 7 (the project's compiler) is native, without a JS API: its 5.9 API under an alias.
import ts from 'typescript-api';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/paths.js';

const SRC = path.join(REPO_ROOT, 'src');

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

/** The modules a file names in imports, re-exports, `import type`s and `import('x').T` types. */
function eagerImports(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Each file under src/ and the files under src/ it imports. */
function importGraph(): Map<string, string[]> {
  const files = sourceFiles(SRC);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = eagerImports(file, readFileSync(file, 'utf8'))
      .map((specifier) => (specifier.startsWith('.') ? resolve(file, specifier, known) : undefined))
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
    // Static, re-exported and type imports count; a dynamic import() does not.
    const text = [
      "import { a } from './static.js';",
      "export { b } from './reexport.js';",
      "import type { C } from './types.js';",
      "type D = import('./typed.js').D;",
      "const e = await import('./lazy.js');",
    ].join('\n');
    expect(eagerImports('x.ts', text)).toEqual(['./static.js', './reexport.js', './types.js', './typed.js']);
  });

  it('has no file-level import circle in src/', () => {
    const found = circles(graph).map((component) =>
      component.map((file) => path.relative(SRC, file)).join(' ↔ '),
    );
    expect(found).toEqual([]);
  });
});
