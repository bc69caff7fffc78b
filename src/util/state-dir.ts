/**
 * The project's state folder `<project>/.geekagent` (history, logs, config): where its files
 * live, and the checks that keep a cloned repository from aiming them elsewhere — the folder and its subfolders must be real folders (a symlink is refused with a
 * clear message, never followed), and state files are read only when they are regular files.
 * Writers use `writeFileAtomic` (util/safe-write.ts), which refuses symlinked targets. Also the
 * folders of the user's own per-project state (sessions, undo): created below the user's state
 * folder without following a link.
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { lstat, mkdir, open, readlink } from 'node:fs/promises';
import path from 'node:path';
import { closeFd, openFd, readFdAt, readWholeFd, statFd } from './fd.js';
import { UnsafePathError } from './safe-write.js';

export const STATE_DIR_NAME = '.geekagent';

/** `<project>/.geekagent/<parts…>` — a path only; see `ensureStateDir` before writing there. */
export function stateFilePath(projectDir: string, ...parts: string[]): string {
  return path.join(path.resolve(projectDir), STATE_DIR_NAME, ...parts);
}

/**
 * Refuses a `.geekagent` that is a symlink or not a folder; a missing one is fine (not created).
 * Faces call it at start so a planted link is reported before anything is read or written.
 */
export async function checkStateDir(projectDir: string): Promise<void> {
  await checkRealFolder(stateFilePath(projectDir), false);
}

/**
 * Creates (when missing) and checks `<project>/.geekagent` and each of `sub` below it, one level at
 * a time: every level must be a real folder, never a symlink. Returns the deepest folder.
 */
export async function ensureStateDir(projectDir: string, ...sub: string[]): Promise<string> {
  let dir = stateFilePath(projectDir);
  await checkRealFolder(dir, true);
  for (const part of sub) {
    dir = path.join(dir, part);
    await checkRealFolder(dir, true);
  }
  return dir;
}

/**
 * Marks a folder of generated state inside the project (`.geekagent/logs`, `tool-output`) as
 * git-ignored: a `.gitignore` of `*` in it (which ignores itself too), so a session leaves no
 * untracked files. Created only when missing (exclusively: an existing file or link is left as it is).
 */
export async function ignoreInGit(dir: string): Promise<void> {
  const handle = await open(path.join(dir, '.gitignore'), 'wx', 0o644).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  });
  if (!handle) return;
  try {
    await handle.writeFile('# GeekAgent state: not for git\n*\n');
  } finally {
    await handle.close();
  }
}

/** Same check for a folder given by path (a log folder and the state folder holding it). */
export async function ensureRealFolder(dir: string): Promise<void> {
  await checkRealFolder(dir, true);
}

async function checkRealFolder(dir: string, create: boolean): Promise<void> {
  const info = await lstat(dir).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  });
  if (info === undefined) {
    if (!create) return;
    // Not recursive: the parent was checked (or is the project folder itself).
    await mkdir(dir).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    });
    return checkRealFolder(dir, false);
  }
  if (info.isSymbolicLink()) {
    const target = await readlink(dir).catch(() => '?');
    throw new UnsafePathError(
      `refusing to use ${dir}: it is a symbolic link (→ ${target}); replace it with a real folder`,
    );
  }
  if (!info.isDirectory()) throw new UnsafePathError(`refusing to use ${dir}: it is not a folder`);
}

/**
 * Creates `dir` and every folder between `base` (the user's state folder) and it as needed (mode
 * 0700); refuses any of them that is a symlink or not a folder (`what` names the state in the
 * message: "refusing to keep sessions in …"). `base` is the person's own: created when missing,
 * not checked (a link to their dotfiles is theirs to make).
 */
export function ensureUserStateFolder(base: string, dir: string, what: string): void {
  const relative = path.relative(base, dir);
  if (relative.startsWith('..') || path.isAbsolute(relative))
    throw new UnsafePathError(`refusing to keep ${what} in ${dir}: it is not under ${base}`);
  mkdirSync(base, { recursive: true, mode: 0o700 });
  let folder = base;
  for (const part of relative.split(path.sep).filter((name) => name !== '')) {
    folder = path.join(folder, part);
    let info = lstatOrUndefined(folder);
    if (!info) {
      try {
        mkdirSync(folder, { mode: 0o700 });
        continue;
      } catch (error) {
        // Another agent made it meanwhile: check what is there now.
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        info = lstatOrUndefined(folder);
      }
    }
    if (info?.isSymbolicLink()) {
      throw new UnsafePathError(`refusing to keep ${what} in ${folder}: it is a symbolic link`);
    }
    if (!info?.isDirectory())
      throw new UnsafePathError(`refusing to keep ${what} in ${folder}: not a folder`);
  }
}

function lstatOrUndefined(folder: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return undefined;
  }
}

/**
 * Reads a state file as text: undefined when missing; refused (UnsafePathError) when it is a
 * symlink or not a regular file. Opened without following a link and without blocking, so a FIFO planted
 * as `.geekagent/history` cannot hang the agent.
 */
export async function readStateFile(file: string): Promise<string | undefined> {
  return (await readRegularFile(file))?.toString('utf8');
}

/** A failed no-follow open of a state file: missing is undefined, a link refused, the rest thrown. */
function missingOrRefused(file: string, error: unknown): undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return undefined;
  if (code === 'ELOOP' || code === 'EMLINK')
    throw new UnsafePathError(`refusing to read ${file}: it is a symbolic link`);
  throw error;
}

function notRegular(file: string): UnsafePathError {
  return new UnsafePathError(`refusing to read ${file}: it is not a regular file`);
}

/**
 * readStateFile's synchronous twin, for many small files read at start-up (the MCP tool cache: one
 * file per server): six trips to the thread pool per file cost more than the reads themselves.
 * The same refusals; the open never blocks (a FIFO is refused after it).
 */
export function readStateFileSync(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (error) {
    return missingOrRefused(file, error);
  }
  try {
    if (!fstatSync(fd).isFile()) throw notRegular(file);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads `length` bytes at `offset` of a regular file (all of it when no range is given); undefined
 * when it is missing. A symlink or a non-file is refused; a range past the end is undefined. By
 * descriptor (util/fd.ts): state files are read at every start.
 */
export async function readRegularFile(
  file: string,
  range?: { offset: number; length: number },
): Promise<Buffer | undefined> {
  let fd: number;
  try {
    fd = await openFd(file, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (error) {
    return missingOrRefused(file, error);
  }
  try {
    const info = await statFd(fd);
    if (!info.isFile()) throw notRegular(file);
    if (!range) return await readWholeFd(fd);
    if (range.offset + range.length > info.size) return undefined;
    const buffer = Buffer.alloc(range.length);
    let done = 0;
    while (done < range.length) {
      const bytesRead = await readFdAt(fd, buffer, done, range.length - done, range.offset + done);
      if (bytesRead === 0) return undefined;
      done += bytesRead;
    }
    return buffer;
  } finally {
    await closeFd(fd);
  }
}

export const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
export const NONBLOCK = constants.O_NONBLOCK ?? 0;
