/**
 * The build step that has the functions a profiled run called compiled with their file
 * (scripts/bundle-plugins/eager-functions.mjs, fed by start-profile.mjs's reading of V8's
 * `--log-function-events`), on a real minified esbuild bundle run by a real Node: the rewritten
 * bundle returns the same, V8 no longer compiles those functions at their first call (only what
 * cannot be written in parentheses: a class method, a method using `super`), and every source-map
 * segment still points at the same text.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decode } from '@jridgewell/sourcemap-codec';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a build script without types.
import { eagerFunctions } from '../../../scripts/bundle-plugins/eager-functions.mjs';
// @ts-expect-error: a build script without types.
import { lazilyCompiled } from '../../../scripts/bundle-plugins/start-profile.mjs';

const SOURCE = `
export function run() {
  const out = [early(), typeof later];
  const counter = {
    n: 2,
    twice(x) { return x * this.n; },
    async plusOne(x) { return x + 1; },
    *pair() { yield 1; yield 2; },
  };
  const base = { hi() { return 'base'; } };
  const child = { __proto__: base, hi() { return 'child>' + super.hi(); } };
  out.push(counter.twice(3), [...counter.pair()], child.hi(), counter.twice.name, counter.pair.name);
  out.push(outer(4), typeof outer, typeof outer.prototype);
  const double = (a) => a * 2;
  out.push(double(5), [1, 2].map((v) => v + 1), (function named() { return typeof named; })());
  class Shape { area() { return 'area'; } }
  out.push(new Shape().area(), swap(), swap());
  return counter.plusOne(out.length).then((n) => [...out, n]);
}
function early() { return 'early:' + later(); }
function outer(y) { 'use strict'; return helper(y) + 1; function helper(z) { return z * 10; } }
function later() { return 'later'; }
// Replaces itself on its first call, as Emscripten's code (yoga, in the TUI's bundle) does.
function swap() { swap = () => 'second'; return 'first'; }
`;

async function bundled(): Promise<{ code: string; map: string }> {
  const result = await build({
    stdin: { contents: SOURCE, loader: 'js', sourcefile: 'entry.js' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    minify: true,
    sourcemap: 'external',
    outfile: 'out.cjs',
    write: false,
    logLevel: 'silent',
  });
  const text = (suffix: string) => result.outputFiles.find((f) => f.path.endsWith(suffix))?.text ?? '';
  return { code: text('out.cjs'), map: text('out.cjs.map') };
}

const dir = mkdtempSync(path.join(tmpdir(), 'eager-functions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the bundle in a Node of its own under `--log-function-events`: its answer, and the offsets
 * of the functions V8 compiled at their first call. */
function profiled(name: string, code: string): { answer: unknown; lazy: number[] } {
  const file = path.join(dir, `${name}.cjs`);
  const log = path.join(dir, `${name}.log`);
  writeFileSync(file, code);
  const run = `require(${JSON.stringify(file)}).run().then((a) => process.stdout.write(JSON.stringify(a)))`;
  const child = spawnSync(
    process.execPath,
    ['--log-function-events', `--logfile=${log}`, '--no-logfile-per-isolate', '-e', run],
    { encoding: 'utf8' },
  );
  expect(child.stderr).toBe('');
  const byFile: Map<string, Set<number>> = lazilyCompiled(readFileSync(log, 'utf8'), dir);
  return { answer: JSON.parse(child.stdout), lazy: [...(byFile.get(file) ?? [])].sort((a, b) => a - b) };
}

describe('eager-functions', () => {
  it('has the profiled functions compiled with the file; the bundle answers as before', async () => {
    const { code, map } = await bundled();
    const before = profiled('before', code);
    expect(before.answer).toEqual([
      'early:later',
      'function',
      6,
      [1, 2],
      'child>base',
      'twice',
      'pair',
      41,
      'function',
      'object',
      10,
      [2, 3],
      'function',
      'area',
      'first',
      'second',
      17,
    ]);
    const eager = eagerFunctions(code, map, new Set(before.lazy));
    // esbuild's own helpers (`__export`, `__copyProps`, `__toCommonJS`, the export getter) are
    // arrows the run calls too.
    expect(eager.counts).toEqual({ declarations: 6, expressions: 9, methods: 4 });
    const after = profiled('after', eager.code);
    expect(after.answer).toEqual(before.answer);
    // What is left: the method that uses `super`, the class's default constructor (V8 logs it as
    // ending where the class starts) and the class's method.
    const left = after.lazy.map((end) =>
      eager.code.startsWith('class', end)
        ? 'a default constructor'
        : eager.code.slice(0, end).match(/[\w$]+\([^()]*\)\{[^{}]*\}$/)?.[0],
    );
    expect(left).toEqual([
      'hi(){return"child>"+super.hi()}',
      'a default constructor',
      'area(){return"area"}',
    ]);
  });

  it('moves the source map with the text', async () => {
    const { code, map } = await bundled();
    const ends = new Set(profiled('for-map', code).lazy);
    const eager = eagerFunctions(code, map, ends);
    const at = (text: string, line: number, column: number) => text.split('\n')[line]?.[column];
    /** Original position and name -> the generated character each segment points at. */
    const points = (text: string, mapText: string) => {
      const out = new Map<string, string | undefined>();
      decode(JSON.parse(mapText).mappings).forEach((segments, line) => {
        for (const [column, ...original] of segments) out.set(original.join(':'), at(text, line, column));
      });
      return out;
    };
    const before = points(code, map);
    const after = points(eager.code, eager.map);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    // A method's head is rewritten (`async plusOne(` -> `plusOne:(async function(`, `*pair(` ->
    // `pair:(function*(`), and a moved declaration loses its name (`function b(` -> `function (`):
    // their segments point at where the new text starts.
    const moved = [...after].filter(([key, char]) => before.get(key) !== char);
    const heads = moved.filter(([, char]) => char === 'p').map(([key, char]) => [before.get(key), char]);
    expect(heads).toEqual([
      ['a', 'p'],
      ['*', 'p'],
    ]);
    expect(moved.filter(([, char]) => char === '(')).toHaveLength(eager.counts.declarations);
    expect(moved).toHaveLength(2 + eager.counts.declarations);
  });
});
