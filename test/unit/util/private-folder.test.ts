/**
 * Private folders and files (util/private-folder.ts): created 0700, tightened when found looser,
 * never through a symlink.
 */
import { chmod, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensurePrivateFolder, tightenPrivateFile } from '../../../src/util/private-folder.js';

let base: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'private-folder-'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const mode = async (file: string) => (await stat(file)).mode & 0o777;

describe('ensurePrivateFolder', () => {
  it('creates a missing folder 0700 (and its parent); without create, reports it missing', async () => {
    const dir = path.join(base, 'state', 'auth');
    expect(await ensurePrivateFolder(dir, false)).toBe(false);
    expect(await ensurePrivateFolder(dir)).toBe(true);
    expect(await mode(dir)).toBe(0o700);
  });

  it('tightens a folder found open to others, and leaves a private one as it is', async () => {
    const dir = path.join(base, 'auth');
    await mkdir(dir);
    await chmod(dir, 0o777);
    expect(await ensurePrivateFolder(dir, false)).toBe(true);
    expect(await mode(dir)).toBe(0o700);
    await chmod(dir, 0o500);
    await ensurePrivateFolder(dir);
    expect(await mode(dir)).toBe(0o500);
  });

  it('refuses a link (not followed, its target unchanged) and a file', async () => {
    const target = path.join(base, 'target');
    await mkdir(target);
    await chmod(target, 0o777);
    const link = path.join(base, 'auth');
    await symlink(target, link);
    await expect(ensurePrivateFolder(link)).rejects.toThrow(/auth: it is a symbolic link/);
    await expect(ensurePrivateFolder(link, false)).rejects.toThrow(/symbolic link/);
    expect(await mode(target)).toBe(0o777);
    const file = path.join(base, 'file');
    await writeFile(file, '');
    await expect(ensurePrivateFolder(file)).rejects.toThrow(/it is not a folder/);
  });
});

describe('tightenPrivateFile', () => {
  it('makes a loose file 0600; a missing one is fine; a link is refused and its target unchanged', async () => {
    const file = path.join(base, 'tokens.json');
    await tightenPrivateFile(file);
    await writeFile(file, '{}');
    await chmod(file, 0o666);
    await tightenPrivateFile(file);
    expect(await mode(file)).toBe(0o600);
    const target = path.join(base, 'other.json');
    await writeFile(target, '{}');
    await chmod(target, 0o644);
    const link = path.join(base, 'linked.json');
    await symlink(target, link);
    await expect(tightenPrivateFile(link)).rejects.toThrow(/symbolic link/);
    expect(await mode(target)).toBe(0o644);
  });
});
