import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLsTool, createReadTool } from '../../../src/tools/builtin/files.js';
import { makeContext, makeRoot, removeRoot, runText } from './helpers.js';

describe('ls', () => {
  let root: string;
  const ls = createLsTool();

  beforeEach(async () => {
    root = await makeRoot();
  });
  afterEach(async () => {
    await removeRoot(root);
  });

  it('lists entries sorted, directories with a slash, hidden ones included', async () => {
    await mkdir(path.join(root, 'src'));
    await mkdir(path.join(root, '.git'));
    await writeFile(path.join(root, 'b.txt'), 'b');
    await writeFile(path.join(root, '.env'), 'x');
    await writeFile(path.join(root, 'a.txt'), 'a');
    await symlink(path.join(root, 'src'), path.join(root, 'link'));
    const { ctx } = makeContext(root);
    const expected = ['.env', '.git/', 'a.txt', 'b.txt', 'link/', 'src/'].join('\n');
    expect(await runText(ls, {}, ctx)).toBe(expected);
    expect(await runText(ls, { path: '.' }, ctx)).toBe(expected);
  });

  it('lists a subfolder, an empty folder and a single file', async () => {
    await mkdir(path.join(root, 'src', 'empty'), { recursive: true });
    await writeFile(path.join(root, 'src', 'main.ts'), 'hello');
    const { ctx } = makeContext(root);
    expect(await runText(ls, { path: 'src' }, ctx)).toBe('empty/\nmain.ts');
    expect(await runText(ls, { path: 'src/empty' }, ctx)).toBe('(empty directory)');
    expect(await runText(ls, { path: 'src/main.ts' }, ctx)).toBe('src/main.ts (5 bytes)');
  });

  it('reports a missing path and refuses paths outside root', async () => {
    const { ctx } = makeContext(root);
    await expect(ls.run({ path: 'nope' }, ctx)).rejects.toThrow('ls: no such file or directory: nope');
    await expect(ls.run({ path: '../outside' }, ctx)).rejects.toThrow('path outside root: ../outside');
    await expect(ls.run({ path: 3 }, ctx)).rejects.toThrow('ls: "path" must be a string');
  });
});

describe('read', () => {
  let root: string;
  const read = createReadTool();

  beforeEach(async () => {
    root = await makeRoot();
  });
  afterEach(async () => {
    await removeRoot(root);
  });

  it('returns a 2000-char slice with a header and a continue hint', async () => {
    const text = 'x'.repeat(2000) + 'y'.repeat(2000) + 'z'.repeat(500);
    await writeFile(path.join(root, 'big.txt'), text);
    const { ctx } = makeContext(root);
    expect(await runText(read, { path: 'big.txt' }, ctx)).toBe(
      `big.txt (chars 0-2000 of 4500)\n${'x'.repeat(2000)}\n(continued: call read with offset 2000 for the next part)`,
    );
    expect(await runText(read, { path: 'big.txt', offset: 2000 }, ctx)).toBe(
      `big.txt (chars 2000-4000 of 4500)\n${'y'.repeat(2000)}\n(continued: call read with offset 4000 for the next part)`,
    );
    expect(await runText(read, { path: './big.txt', offset: 4000 }, ctx)).toBe(
      `big.txt (chars 4000-4500 of 4500)\n${'z'.repeat(500)}`,
    );
  });

  it('reads a small file whole, without a hint', async () => {
    await mkdir(path.join(root, 'docs'));
    await writeFile(path.join(root, 'docs', 'a.md'), '# Title\nbody\n');
    const { ctx } = makeContext(root);
    expect(await runText(read, { path: 'docs/a.md' }, ctx)).toBe(
      'docs/a.md (chars 0-13 of 13)\n# Title\nbody\n',
    );
  });

  it('does not split a surrogate pair across slices', async () => {
    await writeFile(path.join(root, 'emoji.txt'), `${'a'.repeat(1999)}😀tail`);
    const { ctx } = makeContext(root);
    const first = await runText(read, { path: 'emoji.txt' }, ctx);
    expect(first.startsWith('emoji.txt (chars 0-1999 of 2005)')).toBe(true);
    expect(first).toContain('offset 1999');
    expect(await runText(read, { path: 'emoji.txt', offset: 1999 }, ctx)).toBe(
      'emoji.txt (chars 1999-2005 of 2005)\n😀tail',
    );
  });

  it('refuses offsets beyond the end, directories, binaries and missing files', async () => {
    await writeFile(path.join(root, 'small.txt'), 'abc');
    await writeFile(path.join(root, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    await mkdir(path.join(root, 'dir'));
    const { ctx } = makeContext(root);
    await expect(read.run({ path: 'small.txt', offset: 3 }, ctx)).rejects.toThrow(
      'read: offset 3 is beyond the end of small.txt (3 chars)',
    );
    await expect(read.run({ path: 'dir' }, ctx)).rejects.toThrow(
      'read: dir is a directory; use ls to list it',
    );
    await expect(read.run({ path: 'image.png' }, ctx)).rejects.toThrow('read: image.png is a binary file');
    await expect(read.run({ path: 'gone.txt' }, ctx)).rejects.toThrow('read: no such file: gone.txt');
  });

  it('treats a NUL after the first 8 KB as text', async () => {
    await writeFile(path.join(root, 'late.txt'), `${'a'.repeat(9000)}\0`);
    const { ctx } = makeContext(root);
    expect(await runText(read, { path: 'late.txt' }, ctx)).toContain('(chars 0-2000 of 9001)');
  });

  it('validates arguments and refuses paths outside root', async () => {
    const { ctx } = makeContext(root);
    await expect(read.run({}, ctx)).rejects.toThrow('read: "path" must be a string (it is missing)');
    await expect(read.run({ path: 'a', offset: -1 }, ctx)).rejects.toThrow(
      'read: "offset" must be at least 0',
    );
    await expect(read.run({ path: 'a', offset: '5' }, ctx)).rejects.toThrow(
      'read: "offset" must be a number (got a string)',
    );
    await expect(read.run({ path: 'a', offset: 1.5 }, ctx)).rejects.toThrow(
      'read: "offset" must be an integer (got a fractional number)',
    );
    // null means "not given", as models send it for optional arguments.
    await expect(read.run({ path: 'a', offset: null }, ctx)).rejects.toThrow('read: no such file: a');
    await expect(read.run({ path: '../outside' }, ctx)).rejects.toThrow('path outside root: ../outside');
  });
});
