/**
 * The build step that writes esbuild's lazily initialised module bodies as parenthesised functions
 * (scripts/bundle-plugins/eager-inits.mjs), on a real esbuild bundle with __esm wrappers: the
 * bodies become `(function(){…})`, the bundle runs as before (each body once, on first use), and
 * every source-map segment still points at the same text.
 */
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script without types.
import { eagerModuleInits } from '../../../scripts/bundle-plugins/eager-inits.mjs';

const FILES: Record<string, string> = {
  'entry.js': [
    "export async function run() { const a = await import('./a.js'); const b = await import('./b.js');",
    '  return [a.value(), b.value(), a.value()]; }',
  ].join('\n'),
  'a.js': 'export let loads = 0; loads++; export const value = () => `a${loads}`;',
  'b.js':
    "import { value as a } from './a.js'; const text = 'b{}'; export const value = () => `${text}:${a()}`;",
};

async function bundled(): Promise<{ code: string; map: string }> {
  const result = await build({
    entryPoints: ['entry.js'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    minify: true,
    sourcemap: 'external',
    outfile: 'out.cjs',
    write: false,
    logLevel: 'silent',
    supported: { 'dynamic-import': false },
    plugins: [
      {
        name: 'memory',
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) => ({ path: args.path.replace('./', ''), namespace: 'mem' }));
          b.onLoad({ filter: /.*/, namespace: 'mem' }, (args) => ({
            contents: FILES[args.path],
            loader: 'js',
          }));
        },
      },
    ],
  });
  const text = (suffix: string) => result.outputFiles.find((f) => f.path.endsWith(suffix))?.text ?? '';
  return { code: text('out.cjs'), map: text('out.cjs.map') };
}

const run = async (code: string): Promise<unknown> => {
  const module = { exports: {} as { run: () => Promise<unknown> } };
  new Function('require', 'module', 'exports', code)(createRequire(import.meta.url), module, module.exports);
  return module.exports.run();
};

/** Each segment's [generated line, column] (absolute) and the rest of its fields, as written. */
function segments(map: string): Array<[number, number, string]> {
  const mappings = (JSON.parse(map) as { mappings: string }).mappings;
  const out: Array<[number, number, string]> = [];
  const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  mappings.split(';').forEach((line, index) => {
    let column = 0;
    for (const segment of line === '' ? [] : line.split(',')) {
      let value = 0;
      let shift = 0;
      let i = 0;
      for (;;) {
        const digit = BASE64.indexOf(segment[i++] ?? '');
        value += (digit & 31) << shift;
        shift += 5;
        if ((digit & 32) === 0) break;
      }
      column += value & 1 ? -(value >>> 1) : value >>> 1;
      out.push([index, column, segment.slice(i)]);
    }
  });
  return out;
}

describe('eager-inits', () => {
  it('writes each module body as a parenthesised function; the bundle runs as before', async () => {
    const { code, map } = await bundled();
    const eager = eagerModuleInits(code, map);
    expect(eager.wrapped).toBe(2);
    expect(eager.code.match(/\(\(function\(\)\{/g)).toHaveLength(2);
    expect(await run(eager.code)).toEqual(await run(code));
    expect(await run(eager.code)).toEqual(['a1', 'b{}:a1', 'a1']);
  });

  it('moves the source map with the text', async () => {
    const { code, map } = await bundled();
    const eager = eagerModuleInits(code, map);
    const before = segments(map);
    const after = segments(eager.map);
    expect(after).toHaveLength(before.length);
    const lines = (text: string) => text.split('\n');
    const [oldLines, newLines] = [lines(code), lines(eager.code)];
    before.forEach(([line, column, rest], i) => {
      const [newLine, newColumn, newRest] = after[i] ?? [-1, -1, ''];
      expect(newLine).toBe(line);
      expect(newRest).toBe(rest);
      expect(newLines[newLine]?.[newColumn]).toBe(oldLines[line]?.[column]);
    });
  });

  it('fails on a bundle without the helper', () => {
    expect(() => eagerModuleInits('var x=1;', '{"mappings":""}')).toThrow(/__esm helper/);
  });
});
