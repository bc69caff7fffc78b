/**
 * Folders and files only the person may read (OAuth tokens): created 0700/0600, and tightened to
 * that when found looser (a folder made 0777 by hand or by an old release stays private from then
 * on). Never through a symlink: each is opened without following a link and changed by its handle.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { UnsafePathError } from './safe-write.js';
import { NOFOLLOW, NONBLOCK } from './state-dir.js';

const DIRECTORY = constants.O_DIRECTORY ?? 0;
/** Group and others: any of these bits set is too loose. */
const SHARED = 0o077;

/**
 * Makes `dir` a private folder (0700), creating it (and its parent, 0700) when `create` and it is
 * missing. False when it is missing and not created. A symlink or a non-folder is refused.
 */
export async function ensurePrivateFolder(dir: string, create = true): Promise<boolean> {
  if (create) {
    await mkdir(path.dirname(dir), { recursive: true, mode: 0o700 });
    await mkdir(dir, { mode: 0o700 }).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    });
  }
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(dir, constants.O_RDONLY | DIRECTORY | NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !create) return false;
    // O_DIRECTORY|O_NOFOLLOW on a link: ENOTDIR on Linux, ELOOP elsewhere.
    if (code !== 'ELOOP' && code !== 'ENOTDIR') throw error;
    const linked = (await lstat(dir).catch(() => undefined))?.isSymbolicLink();
    throw new UnsafePathError(
      linked
        ? `refusing to use ${dir}: it is a symbolic link; replace it with a real folder`
        : `refusing to use ${dir}: it is not a folder`,
    );
  }
  try {
    const info = await handle.stat();
    if (!info.isDirectory()) throw new UnsafePathError(`refusing to use ${dir}: it is not a folder`);
    if ((info.mode & SHARED) !== 0) await handle.chmod(0o700);
  } finally {
    await handle.close();
  }
  return true;
}

/** Tightens an existing private file to 0600; a missing one is fine, a link or non-file refused. */
export async function tightenPrivateFile(file: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code === 'ELOOP') throw new UnsafePathError(`refusing to use ${file}: it is a symbolic link`);
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new UnsafePathError(`refusing to use ${file}: it is not a regular file`);
    if ((info.mode & SHARED) !== 0) await handle.chmod(0o600);
  } finally {
    await handle.close();
  }
}
