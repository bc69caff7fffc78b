/**
 * writeFileAtomic: refuses a symlinked target or folder, keeps an existing file's mode, and a
 * failed write leaves the old file (and no temporary file) behind. A real SIGKILL mid-write is in
 * test/e2e/state-files.test.ts (it needs the built module in a child process).
 */
import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnsafePathError, writeFileAtomic } from '../../../src/util/safe-write.js';

let dir: string;
let outside: string;

beforeEach(async () => {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'geekagent-safe-write-')));
  dir = path.join(base, 'state');
  outside = path.join(base, 'outside');
  await mkdir(dir);
  await mkdir(outside);
});
afterEach(async () => {
  await rm(path.dirname(dir), { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('creates and replaces a file, leaving no temporary file', async () => {
    const file = path.join(dir, 'a.json');
    await writeFileAtomic(file, 'one');
    await writeFileAtomic(file, 'two');
    expect(await readFile(file, 'utf8')).toBe('two');
    expect(await readdir(dir)).toEqual(['a.json']);
  });

  it('refuses a target that is a symlink and leaves the link target untouched', async () => {
    const victim = path.join(outside, '.bashrc');
    await writeFile(victim, 'export PATH=/usr/bin\n');
    await symlink(victim, path.join(dir, 'history'));
    await expect(writeFileAtomic(path.join(dir, 'history'), 'pwned')).rejects.toThrow(UnsafePathError);
    await expect(writeFileAtomic(path.join(dir, 'history'), 'pwned')).rejects.toThrow(
      /refusing to write .*history: it is a symbolic link/,
    );
    expect(await readFile(victim, 'utf8')).toBe('export PATH=/usr/bin\n');
    expect((await readdir(dir)).sort()).toEqual(['history']);
  });

  it('refuses a file whose folder is a symlink (a planted .geekagent or logs link)', async () => {
    const linked = path.join(dir, '.geekagent');
    await symlink(outside, linked);
    await expect(writeFileAtomic(path.join(linked, 'undo.json'), '{}')).rejects.toThrow(
      /refusing to use .*\.geekagent: it is a symbolic link \(→ .*outside\)/,
    );
    expect(await readdir(outside)).toEqual([]);
  });

  it('refuses a target that is not a regular file', async () => {
    await mkdir(path.join(dir, 'folder'));
    await expect(writeFileAtomic(path.join(dir, 'folder'), 'x')).rejects.toThrow(/not a regular file/);
  });

  it("keeps an existing file's mode exactly (umask does not narrow it)", async () => {
    const file = path.join(dir, 'script.sh');
    await writeFile(file, '#!/bin/sh\n');
    await chmod(file, 0o751);
    await writeFileAtomic(file, '#!/bin/sh\necho hi\n');
    expect((await stat(file)).mode & 0o7777).toBe(0o751);
    const secret = path.join(dir, 'token.json');
    await writeFileAtomic(secret, '{}', { mode: 0o600 });
    expect((await stat(secret)).mode & 0o7777).toBe(0o600);
  });

  it('a write that fails part-way leaves the old file whole and no temporary file', async () => {
    const file = path.join(dir, 'undo.json');
    await writeFile(file, 'old content');
    // Not writable data: the temporary file is created, then the write throws.
    const bad = { length: 3 } as unknown as Uint8Array;
    await expect(writeFileAtomic(file, bad)).rejects.toThrow();
    expect(await readFile(file, 'utf8')).toBe('old content');
    expect(await readdir(dir)).toEqual(['undo.json']);
  });
});
