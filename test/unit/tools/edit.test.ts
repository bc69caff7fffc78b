import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPatchTool, createWriteTool } from '../../../src/tools/builtin/edit.js';
import { ToolError } from '../../../src/tools/types.js';
import { makeContext, makeRoot, removeRoot, runText } from './helpers.js';

describe('write', () => {
  let root: string;
  const write = createWriteTool();

  beforeEach(async () => {
    root = await makeRoot();
  });
  afterEach(async () => {
    await removeRoot(root);
  });

  it('creates parent folders and records undo (null) before writing', async () => {
    const { ctx, undo } = makeContext(root);
    expect(await runText(write, { path: 'a/b/new.txt', content: 'hello' }, ctx)).toBe(
      'created a/b/new.txt (5 chars)',
    );
    const file = path.join(root, 'a', 'b', 'new.txt');
    expect(await readFile(file, 'utf8')).toBe('hello');
    expect(undo.entries).toEqual([{ path: file, previous: null, onDisk: null }]);
  });

  it('overwrites, recording the previous content while it is still on disk', async () => {
    await writeFile(path.join(root, 'x.txt'), 'old content');
    const { ctx, undo } = makeContext(root);
    expect(await runText(write, { path: 'x.txt', content: 'new' }, ctx)).toBe(
      'wrote x.txt (3 chars, was 11)',
    );
    expect(await readFile(path.join(root, 'x.txt'), 'utf8')).toBe('new');
    expect(undo.entries).toEqual([
      { path: path.join(root, 'x.txt'), previous: 'old content', onDisk: 'old content' },
    ]);
  });

  it('writes nothing when undo cannot be recorded', async () => {
    const { ctx, undo } = makeContext(root);
    undo.failWith = new Error('disk full');
    await expect(write.run({ path: 'y.txt', content: 'z' }, ctx)).rejects.toThrow('disk full');
    await expect(stat(path.join(root, 'y.txt'))).rejects.toThrow(/ENOENT/);
  });

  it('writes nothing once the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { ctx, undo } = makeContext(root, { signal: controller.signal });
    await expect(write.run({ path: 'y.txt', content: 'z' }, ctx)).rejects.toThrow(
      new ToolError('write: cancelled'),
    );
    await expect(stat(path.join(root, 'y.txt'))).rejects.toThrow(/ENOENT/);
    expect(undo.entries).toEqual([]);
  });

  it('describes a creation and an overwrite with a unified diff, without writing', async () => {
    await writeFile(path.join(root, 'x.txt'), 'one\ntwo\n');
    const { ctx, undo } = makeContext(root);
    const created = await write.describeApproval?.({ path: 'sub/new.txt', content: 'fresh\n' }, ctx);
    expect(created?.title).toBe('About to create sub/new.txt');
    expect(created?.kind).toBe('diff');
    expect(created?.detail).toBe('--- /dev/null\n+++ b/sub/new.txt\n@@ -0,0 +1,1 @@\n+fresh');
    const changed = await write.describeApproval?.({ path: 'x.txt', content: 'one\nTWO\n' }, ctx);
    expect(changed?.title).toBe('About to write x.txt');
    expect(changed?.detail).toBe('--- a/x.txt\n+++ b/x.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO');
    await expect(stat(path.join(root, 'sub'))).rejects.toThrow(/ENOENT/);
    expect(undo.entries).toEqual([]);
  });

  it('cuts a long diff to 200 lines', async () => {
    const { ctx } = makeContext(root);
    const content = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n');
    const prompt = await write.describeApproval?.({ path: 'long.txt', content }, ctx);
    const lines = prompt?.detail.split('\n') ?? [];
    expect(lines).toHaveLength(201);
    expect(lines[200]).toBe('(diff truncated)');
  });

  it('refuses directories, bad arguments and paths outside root', async () => {
    await mkdir(path.join(root, 'dir'));
    const { ctx } = makeContext(root);
    await expect(write.run({ path: 'dir', content: 'x' }, ctx)).rejects.toThrow('write: dir is a directory');
    await expect(write.run({ path: 'a.txt' }, ctx)).rejects.toThrow('write: "content" must be a string');
    await expect(write.run({ path: '../outside', content: 'x' }, ctx)).rejects.toThrow(
      'path outside root: ../outside',
    );
  });
});

describe('patch', () => {
  let root: string;
  let file: string;
  const patch = createPatchTool();
  const original = 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 1;\n}\n';

  beforeEach(async () => {
    root = await makeRoot();
    file = path.join(root, 'code.js');
    await writeFile(file, original);
  });
  afterEach(async () => {
    await removeRoot(root);
  });

  it('applies hunks in order on the evolving text and records undo first', async () => {
    const { ctx, undo } = makeContext(root);
    const hunks = [
      { old: 'function a() {\n  return 1;', new: 'function a() {\n  return 2;' },
      // Only unique once hunk 1 has changed a's body.
      { old: 'return 1;', new: 'return "$&";' },
    ];
    expect(await runText(patch, { path: 'code.js', hunks }, ctx)).toBe('patched code.js (2 hunks)');
    expect(await readFile(file, 'utf8')).toBe(
      'function a() {\n  return 2;\n}\n\nfunction b() {\n  return "$&";\n}\n',
    );
    expect(undo.entries).toEqual([{ path: file, previous: original, onDisk: original }]);
  });

  it('explains a hunk that is not found', async () => {
    const { ctx } = makeContext(root);
    await expect(
      patch.run({ path: 'code.js', hunks: [{ old: 'return  1;', new: 'x' }] }, ctx),
    ).rejects.toThrow(
      new ToolError(
        'patch: hunk 1 not found in code.js: the old text must match the file exactly (whitespace included); read the file and try again',
      ),
    );
  });

  it('explains a hunk that matches more than once', async () => {
    const { ctx } = makeContext(root);
    await expect(
      patch.run({ path: 'code.js', hunks: [{ old: 'return 1;', new: 'x' }] }, ctx),
    ).rejects.toThrow(
      new ToolError(
        'patch: hunk 1 matches 2 times in code.js; add surrounding lines so it matches exactly once',
      ),
    );
  });

  it('writes nothing and records no undo when a later hunk fails', async () => {
    const { ctx, undo } = makeContext(root);
    const hunks = [
      { old: 'function a()', new: 'function renamed()' },
      { old: 'not in the file', new: 'x' },
    ];
    await expect(patch.run({ path: 'code.js', hunks }, ctx)).rejects.toThrow(
      'patch: hunk 2 not found in code.js',
    );
    expect(await readFile(file, 'utf8')).toBe(original);
    expect(undo.entries).toEqual([]);
  });

  it('refuses empty old text, malformed hunks, missing files and paths outside root', async () => {
    const { ctx } = makeContext(root);
    await expect(patch.run({ path: 'code.js', hunks: [{ old: '', new: 'x' }] }, ctx)).rejects.toThrow(
      'patch: hunk 1 has an empty "old"',
    );
    await expect(patch.run({ path: 'code.js', hunks: [] }, ctx)).rejects.toThrow(
      'patch: "hunks" must not be empty',
    );
    await expect(patch.run({ path: 'code.js', hunks: [{ old: 'a' }] }, ctx)).rejects.toThrow(
      'patch: "hunks[0].new" must be a string (it is missing)',
    );
    await expect(patch.run({ path: 'code.js', hunks: 'a->b' }, ctx)).rejects.toThrow(
      'patch: "hunks" must be an array (got a string)',
    );
    await writeFile(path.join(root, 'blob.bin'), Buffer.from([0x61, 0, 0x62]));
    await expect(patch.run({ path: 'blob.bin', hunks: [{ old: 'a', new: 'b' }] }, ctx)).rejects.toThrow(
      'patch: blob.bin is a binary file',
    );
    await expect(patch.run({ path: 'gone.js', hunks: [{ old: 'a', new: 'b' }] }, ctx)).rejects.toThrow(
      'patch: no such file: gone.js; use write to create it',
    );
    await expect(patch.run({ path: '../outside', hunks: [{ old: 'a', new: 'b' }] }, ctx)).rejects.toThrow(
      'path outside root: ../outside',
    );
  });

  it('describes the change as a diff, and throws the same error when hunks do not apply', async () => {
    const { ctx, undo } = makeContext(root);
    const prompt = await patch.describeApproval?.(
      {
        path: 'code.js',
        hunks: [{ old: 'function b() {\n  return 1;', new: 'function b() {\n  return 3;' }],
      },
      ctx,
    );
    expect(prompt?.title).toBe('About to patch code.js');
    expect(prompt?.kind).toBe('diff');
    expect(prompt?.detail).toContain('--- a/code.js\n+++ b/code.js');
    expect(prompt?.detail).toContain('-  return 1;\n+  return 3;');
    expect(await readFile(file, 'utf8')).toBe(original);
    expect(undo.entries).toEqual([]);
    await expect(
      patch.describeApproval?.({ path: 'code.js', hunks: [{ old: 'return 1;', new: 'x' }] }, ctx),
    ).rejects.toThrow(
      new ToolError(
        'patch: hunk 1 matches 2 times in code.js; add surrounding lines so it matches exactly once',
      ),
    );
  });

  it('matches LF hunks against a CRLF file, keeping its line endings', async () => {
    await writeFile(file, 'one\r\ntwo\r\nthree\r\n');
    const { ctx } = makeContext(root);
    await runText(patch, { path: 'code.js', hunks: [{ old: 'one\ntwo', new: 'one\n2' }] }, ctx);
    expect(await readFile(file, 'utf8')).toBe('one\r\n2\r\nthree\r\n');
  });
});
