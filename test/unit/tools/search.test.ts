import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSearchTool } from '../../../src/tools/builtin/search.js';
import { makeContext, makeRoot, removeRoot, runText } from './helpers.js';

async function put(root: string, relative: string, content: string | Buffer): Promise<void> {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), content);
}

describe('search', () => {
  let root: string;
  const search = createSearchTool();

  beforeEach(async () => {
    root = await makeRoot();
  });
  afterEach(async () => {
    await removeRoot(root);
  });

  it('finds regex matches as path:line: text, sorted by path', async () => {
    await put(root, 'src/b.ts', 'const x = 1;\n  call(foo42);\n');
    await put(root, 'src/a.ts', 'foo7\nbar\nfoo\n');
    const { ctx } = makeContext(root);
    expect(await runText(search, { pattern: 'foo\\d+' }, ctx)).toBe(
      'src/a.ts:1: foo7\nsrc/b.ts:2: call(foo42);',
    );
  });

  it('searches an invalid regex as literal text and says so first', async () => {
    await put(root, 'a.js', 'if (foo( {\nfoo\n');
    const { ctx } = makeContext(root);
    const lines = (await runText(search, { pattern: 'foo(' }, ctx)).split('\n');
    expect(lines[0]).toMatch(/^\(not a valid regular expression: .+; searched for it as literal text\)$/);
    expect(lines.slice(1)).toEqual(['a.js:1: if (foo( {']);
  });

  it('honours .gitignore (nested ones and negations too) and skips node_modules and hidden entries', async () => {
    await put(root, '.gitignore', 'build/\n*.log\n');
    await put(root, 'build/out.js', 'needle');
    await put(root, 'debug.log', 'needle');
    await put(root, 'node_modules/pkg/index.js', 'needle');
    await put(root, '.cache/x.txt', 'needle');
    await put(root, 'src/.secret.txt', 'needle');
    await put(root, 'pkg/.gitignore', 'generated.txt\n!keep.log\n');
    await put(root, 'pkg/generated.txt', 'needle');
    await put(root, 'pkg/keep.log', 'needle');
    await put(root, 'src/main.txt', 'needle');
    const { ctx } = makeContext(root);
    expect(await runText(search, { pattern: 'needle' }, ctx)).toBe(
      'pkg/keep.log:1: needle\nsrc/main.txt:1: needle',
    );
    // Root rules still apply when the search starts in a subfolder.
    await put(root, 'src/app.log', 'needle');
    expect(await runText(search, { pattern: 'needle', path: 'src' }, ctx)).toBe('src/main.txt:1: needle');
    // An ignored folder asked for by name is searched.
    expect(await runText(search, { pattern: 'needle', path: 'build' }, ctx)).toBe('build/out.js:1: needle');
  });

  it('skips binary files and files over 1 MB', async () => {
    await put(root, 'blob.bin', Buffer.concat([Buffer.from('needle\n'), Buffer.from([0, 1, 2])]));
    await put(root, 'huge.txt', `needle\n${'x'.repeat(1024 * 1024)}`);
    await put(root, 'edge.txt', `needle\n${'x'.repeat(1024 * 1024 - 7)}`);
    const { ctx } = makeContext(root);
    expect(await runText(search, { pattern: 'needle' }, ctx)).toBe('edge.txt:1: needle');
  });

  it('shows at most 50 lines and the total count', async () => {
    await put(root, 'many.txt', Array.from({ length: 60 }, (_, i) => `hit ${i}`).join('\n'));
    const { ctx } = makeContext(root);
    const lines = (await runText(search, { pattern: '^hit' }, ctx)).split('\n');
    expect(lines).toHaveLength(51);
    expect(lines[49]).toBe('many.txt:50: hit 49');
    expect(lines[50]).toBe('(showing 50 of 60 matching lines)');
  });

  it('trims matched lines to 200 chars and searches a single file', async () => {
    await put(root, 'long.txt', `    needle ${'y'.repeat(500)}\n`);
    await put(root, 'other.txt', 'needle');
    const { ctx } = makeContext(root);
    const out = await runText(search, { pattern: 'needle', path: 'long.txt' }, ctx);
    expect(out).toBe(`long.txt:1: needle ${'y'.repeat(193)}`);
  });

  it('reports no matches, a missing path and paths outside root', async () => {
    await put(root, 'a.txt', 'hello');
    const { ctx } = makeContext(root);
    expect(await runText(search, { pattern: 'absent' }, ctx)).toBe('(no matches for absent)');
    await expect(search.run({ pattern: 'x', path: 'nope' }, ctx)).rejects.toThrow(
      'search: no such file or directory: nope',
    );
    await expect(search.run({ pattern: 'x', path: '../outside' }, ctx)).rejects.toThrow(
      'path outside root: ../outside',
    );
    await expect(search.run({ path: '.' }, ctx)).rejects.toThrow('search: "pattern" must be a string');
  });

  it('stops when the signal is aborted', async () => {
    await put(root, 'a.txt', 'needle');
    const controller = new AbortController();
    controller.abort();
    const { ctx } = makeContext(root, { signal: controller.signal });
    await expect(search.run({ pattern: 'needle' }, ctx)).rejects.toThrow('search: cancelled');
  });
});
