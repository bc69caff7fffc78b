import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolError } from '../../../src/tools/types.js';
import { RootSandbox } from '../../../src/workspace/root-sandbox.js';

describe('RootSandbox', () => {
  /** base/root is the sandbox; base/outside is a sibling the sandbox must never reach. */
  let base: string;
  let root: string;
  let outside: string;
  let sandbox: RootSandbox;

  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'geekagent-sandbox-')));
    root = path.join(base, 'root');
    outside = path.join(base, 'outside');
    await mkdir(path.join(root, 'src'), { recursive: true });
    await mkdir(outside);
    await writeFile(path.join(root, 'src', 'main.ts'), 'inside');
    await writeFile(path.join(outside, 'secret.txt'), 'outside');
    sandbox = new RootSandbox(root);
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const refusal = async (requested: string): Promise<ToolError> => {
    const error = await sandbox.resolve(requested).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ToolError);
    return error as ToolError;
  };

  it('resolves relative paths, existing or not, to absolute paths inside root', async () => {
    expect(await sandbox.resolve('src/main.ts')).toBe(path.join(root, 'src', 'main.ts'));
    expect(await sandbox.resolve('./src/../src/main.ts')).toBe(path.join(root, 'src', 'main.ts'));
    expect(await sandbox.resolve('new/deeper/file.txt')).toBe(path.join(root, 'new', 'deeper', 'file.txt'));
    expect(await sandbox.resolve(path.join(root, 'src'))).toBe(path.join(root, 'src'));
  });

  it('allows root itself', async () => {
    expect(await sandbox.resolve('.')).toBe(root);
    expect(await sandbox.resolve('')).toBe(root);
    expect(await sandbox.resolve(root)).toBe(root);
    expect(await sandbox.resolve('src/..')).toBe(root);
  });

  it('refuses .. escapes with the path as it was asked for', async () => {
    expect((await refusal('../x')).message).toBe('path outside root: ../x');
    expect((await refusal('src/../../outside/secret.txt')).message).toBe(
      'path outside root: src/../../outside/secret.txt',
    );
    expect((await refusal('..')).message).toBe('path outside root: ..');
  });

  it('refuses absolute paths outside root, including a sibling sharing its prefix', async () => {
    const secret = path.join(outside, 'secret.txt');
    expect((await refusal(secret)).message).toBe(`path outside root: ${secret}`);
    await mkdir(`${root}-evil`);
    expect((await refusal(`${root}-evil`)).message).toBe(`path outside root: ${root}-evil`);
    expect((await refusal('/')).message).toBe('path outside root: /');
  });

  it('refuses a symlink inside root that points outside, for reads and for new children', async () => {
    await symlink(outside, path.join(root, 'out-dir'));
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'out-file'));
    expect((await refusal('out-file')).message).toBe('path outside root: out-file');
    expect((await refusal('out-dir/secret.txt')).message).toBe('path outside root: out-dir/secret.txt');
    expect((await refusal('out-dir/not/yet/here.txt')).message).toBe(
      'path outside root: out-dir/not/yet/here.txt',
    );
    expect((await refusal('out-dir')).message).toBe('path outside root: out-dir');
  });

  it('refuses a dangling symlink that points outside, and a path beneath it', async () => {
    await symlink(path.join(outside, 'would-be-created.txt'), path.join(root, 'dangling'));
    await symlink('../outside/missing-dir', path.join(root, 'dangling-dir'));
    expect((await refusal('dangling')).message).toBe('path outside root: dangling');
    expect((await refusal('dangling-dir/child.txt')).message).toBe(
      'path outside root: dangling-dir/child.txt',
    );
  });

  it('refuses a chain of dangling symlinks that ends outside', async () => {
    await symlink('second', path.join(root, 'first'));
    await symlink(path.join(outside, 'target.txt'), path.join(root, 'second'));
    expect((await refusal('first')).message).toBe('path outside root: first');
  });

  it('allows symlinks inside root that point inside, existing or dangling', async () => {
    await symlink(path.join(root, 'src'), path.join(root, 'src-link'));
    await symlink('src/main.ts', path.join(root, 'main-link'));
    await symlink('src/planned.ts', path.join(root, 'planned-link'));
    expect(await sandbox.resolve('src-link/main.ts')).toBe(path.join(root, 'src-link', 'main.ts'));
    expect(await sandbox.resolve('src-link/new.ts')).toBe(path.join(root, 'src-link', 'new.ts'));
    expect(await sandbox.resolve('main-link')).toBe(path.join(root, 'main-link'));
    expect(await sandbox.resolve('planned-link')).toBe(path.join(root, 'planned-link'));
  });

  it('works when root itself is reached through a symlink', async () => {
    const linkedRoot = path.join(base, 'linked-root');
    await symlink(root, linkedRoot);
    const linked = new RootSandbox(linkedRoot);
    expect(await linked.resolve('src/main.ts')).toBe(path.join(linkedRoot, 'src', 'main.ts'));
    await symlink(outside, path.join(root, 'out'));
    await expect(linked.resolve('out/secret.txt')).rejects.toThrow('path outside root: out/secret.txt');
  });

  it('displays paths relative to root, and root as "."', () => {
    expect(sandbox.display(path.join(root, 'src', 'main.ts'))).toBe(path.join('src', 'main.ts'));
    expect(sandbox.display(root)).toBe('.');
  });

  it('allows a name inside root that merely starts with ".."', async () => {
    await writeFile(path.join(root, '..notes'), 'inside');
    expect(await sandbox.resolve('..notes')).toBe(path.join(root, '..notes'));
  });

  it('refuses a dangling relative symlink reached through an inside symlink', async () => {
    // root/a/b/link -> root/c. Through the link, c/l -> ../../escape is base/escape, outside root;
    // read lexically from root/a/b/link it looks like root/a/escape, inside.
    await mkdir(path.join(root, 'a', 'b'), { recursive: true });
    await mkdir(path.join(root, 'c'));
    await symlink('../../c', path.join(root, 'a', 'b', 'link'));
    await symlink('../../escape', path.join(root, 'c', 'l'));
    // Direct access is refused either way; only the path through the link goes wrong.
    await expect(sandbox.resolve('c/l')).rejects.toThrow('path outside root: c/l');
    await expect(sandbox.resolve('a/b/link/l')).rejects.toThrow('path outside root: a/b/link/l');
  });

  it('extra roots: absolute paths inside them resolve and show whole; links out of them and other folders are refused', async () => {
    const extra = path.join(base, 'extra');
    await mkdir(extra);
    await writeFile(path.join(extra, 'notes.md'), 'extra');
    await symlink(outside, path.join(extra, 'out'));
    const wide = new RootSandbox(root, [extra]);
    expect(await wide.resolve(path.join(extra, 'notes.md'))).toBe(path.join(extra, 'notes.md'));
    expect(await wide.resolve(path.join(extra, 'new', 'file.txt'))).toBe(path.join(extra, 'new', 'file.txt'));
    expect(wide.display(path.join(extra, 'notes.md'))).toBe(path.join(extra, 'notes.md'));
    expect(wide.display(path.join(root, 'src', 'main.ts'))).toBe(path.join('src', 'main.ts'));
    // Relative paths are the root's, as before.
    expect(await wide.resolve('src/main.ts')).toBe(path.join(root, 'src', 'main.ts'));
    await expect(wide.resolve(path.join(extra, 'out', 'secret.txt'))).rejects.toThrow('path outside root');
    await expect(wide.resolve(path.join(outside, 'secret.txt'))).rejects.toThrow('path outside root');
    // Without the extra root, the same path is outside.
    await expect(sandbox.resolve(path.join(extra, 'notes.md'))).rejects.toThrow('path outside root');
  });
});
