/**
 * Writing state and project files safely: into a temporary file created exclusively next to the
 * target, flushed, then renamed over it — so a crash (even SIGKILL) leaves the old file or the
 * new one, never half of one — and never through a symlink: a target that is a symlink is
 * refused, as the project folder is untrusted and a planted link could aim a write at ~/.bashrc;
 * so is a target whose folder is a symlink (a planted `.geekagent` or `logs` link).
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, lstat, mkdir, open, readlink, rename, rm } from 'node:fs/promises';
import path from 'node:path';

export class UnsafePathError extends Error {
  override readonly name = 'UnsafePathError';
}

export interface AtomicWriteOptions {
  /** File mode; default: the existing file's mode, else 0o644 (before umask). */
  mode?: number;
  /** Mode for created parent folders. */
  dirMode?: number;
  /** Skip creating parent folders (the caller checked them). */
  noMkdir?: boolean;
}

/** Refuses `file` when it exists as a symlink (or anything but a regular file). */
async function existingMode(file: string): Promise<number | undefined> {
  try {
    const info = await lstat(file);
    if (info.isSymbolicLink()) throw new UnsafePathError(`refusing to write ${file}: it is a symbolic link`);
    if (!info.isFile()) throw new UnsafePathError(`refusing to write ${file}: it is not a regular file`);
    return info.mode & 0o7777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The folder a state file goes into must be a real folder: a link would move the write elsewhere. */
async function refuseLinkedFolder(dir: string): Promise<void> {
  const info = await lstat(dir);
  if (info.isSymbolicLink()) {
    const target = await readlink(dir).catch(() => '?');
    throw new UnsafePathError(
      `refusing to use ${dir}: it is a symbolic link (→ ${target}); replace it with a real folder`,
    );
  }
}

/** Writes `data` to `file` atomically (temp + fsync + rename), never through a symlink. */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const dir = path.dirname(file);
  if (!options.noMkdir)
    await mkdir(dir, { recursive: true, ...(options.dirMode ? { mode: options.dirMode } : {}) });
  await refuseLinkedFolder(dir);
  const previousMode = await existingMode(file);
  const mode = options.mode ?? previousMode ?? 0o644;
  const temporary = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  // O_EXCL|O_NOFOLLOW: the temporary name cannot be pre-planted as a link.
  const handle = await open(
    temporary,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
    mode,
  );
  try {
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    // The umask may have narrowed the mode; an existing file's mode is kept exactly.
    if (previousMode !== undefined || options.mode !== undefined) await chmod(temporary, mode);
    await rename(temporary, file);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}
