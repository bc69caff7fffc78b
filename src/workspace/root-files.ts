/**
 * File I/O inside the permission root that a planted or flipped link cannot redirect. The sandbox
 * checks a path once; these functions keep that check true while the file is used:
 * - only regular files are opened (a FIFO, device or socket is refused before opening, and opens
 *   never block), and a file with more than one hard link is refused (its other name may be
 *   outside the root);
 * - a file is opened by its real path without following a final link, then checked: the opened
 *   file's identity (dev/ino) must be the one at that real path inside the root;
 * - writes go to a temporary file in the real parent folder, reached from the root one folder at a
 *   time without following links (on Linux through /proc/self/fd, so no path is looked up twice),
 *   then renamed over the target, keeping its mode: a crash leaves the old file or the new one.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Dirent, type Stats } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readdir, realpath, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../util/errors.js';
import { openedInside, PROC_FD } from '../util/root-read.js';
import { isInside, type PathSandbox, realpathOfExistingPrefix, rootsOf } from './root-sandbox.js';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const DIRECTORY = constants.O_DIRECTORY ?? 0;

/** Names the file in messages: `read: notes.txt`. */
export interface FileLabel {
  tool: string;
  requested: string;
}

export type OpenedFile =
  | { kind: 'missing' }
  | { kind: 'directory' }
  | { kind: 'file'; handle: FileHandle; stats: Stats; real: string };

export function realRootOf(sandbox: PathSandbox): Promise<string> {
  return realpath(sandbox.root).catch(() => sandbox.root);
}

/**
 * The root (the sandbox's, or an extra root) whose real path holds the real path `real`, with
 * that real path; undefined when none does.
 */
export async function rootHolding(
  sandbox: PathSandbox,
  real: string,
): Promise<{ root: string; realRoot: string } | undefined> {
  for (const root of rootsOf(sandbox)) {
    const realRoot = await realpath(root).catch(() => root);
    if (isInside(realRoot, real)) return { root, realRoot };
  }
  return undefined;
}

/** The real paths of the root and the extra roots. */
export function realRootsOf(sandbox: PathSandbox): Promise<string[]> {
  return Promise.all(rootsOf(sandbox).map((root) => realpath(root).catch(() => root)));
}

/** The root (the sandbox's or an extra one) whose folder holds the absolute path, and its real path. */
export async function rootOfPath(
  sandbox: PathSandbox,
  absolute: string,
): Promise<{ root: string; realRoot: string }> {
  const root = rootsOf(sandbox).find((candidate) => isInside(candidate, absolute)) ?? sandbox.root;
  return { root, realRoot: await realpath(root).catch(() => root) };
}

async function realRootHolding(sandbox: PathSandbox, real: string, label: FileLabel): Promise<string> {
  const held = await rootHolding(sandbox, real);
  if (!held) throw new ToolError(`path outside root: ${label.requested}`);
  return held.realRoot;
}

/** Opens an existing file inside root for reading; `absolute` comes from `sandbox.resolve`. */
export async function openInRoot(
  sandbox: PathSandbox,
  absolute: string,
  label: FileLabel,
): Promise<OpenedFile> {
  const real = await realpath(absolute).catch(missingAsUndefined);
  if (real === undefined) return { kind: 'missing' };
  const realRoot = await realRootHolding(sandbox, real, label);
  const before = await lstat(real).catch(missingAsUndefined);
  if (before === undefined) return { kind: 'missing' };
  if (before.isDirectory()) return { kind: 'directory' };
  // Checked before opening too: opening a device can have effects of its own.
  checkRegular(before, label);
  let handle: FileHandle;
  try {
    handle = await open(real, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (error) {
    if (errno(error) === 'ENOENT') return { kind: 'missing' };
    if (errno(error) === 'ELOOP') throw changed(label);
    throw error;
  }
  try {
    const stats = await handle.stat();
    checkRegular(stats, label);
    if (!(await openedInside(handle, stats, real, realRoot))) throw changed(label);
    return { kind: 'file', handle, stats, real };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * A file's bytes for a walk over many files (search): undefined for anything that is not a plain
 * regular file inside root of at most `maxBytes` — such files are skipped, never reported.
 */
export async function readWalkedFile(
  file: string,
  realRoot: string,
  maxBytes: number,
): Promise<Buffer | undefined> {
  const before = await lstat(file).catch(() => undefined);
  if (!before?.isFile() || before.nlink > 1 || before.size > maxBytes) return undefined;
  const handle = await open(file, constants.O_RDONLY | NOFOLLOW | NONBLOCK).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.nlink > 1 || stats.size > maxBytes) return undefined;
    if (!(await openedInside(handle, stats, file, realRoot))) return undefined;
    return await handle.readFile();
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/**
 * Where a write to `absolute` lands: its real path (an in-root link is followed to its target),
 * which must be inside root. `canonical` is the same file spelled from the root that holds it.
 */
export async function resolveWriteTarget(
  sandbox: PathSandbox,
  absolute: string,
  label: FileLabel,
): Promise<{ real: string; canonical: string }> {
  const real = await realpathOfExistingPrefix(absolute);
  const held = await rootHolding(sandbox, real);
  if (!held || real === held.realRoot) throw new ToolError(`path outside root: ${label.requested}`);
  return { real, canonical: path.join(held.root, path.relative(held.realRoot, real)) };
}

/**
 * Writes `data` to `target` (a real path inside root, see `resolveWriteTarget`) atomically:
 * missing folders are created, the final name must not be a link, a folder, a special file or a
 * file with other hard links; an existing file keeps its mode.
 */
export async function writeInRoot(
  sandbox: PathSandbox,
  target: string,
  data: string,
  label: FileLabel,
): Promise<void> {
  const realRoot = await realRootHolding(sandbox, target, label);
  if (target === realRoot) throw new ToolError(`path outside root: ${label.requested}`);
  const dir = await openFolder(realRoot, path.dirname(target), true, label);
  const name = path.basename(target);
  try {
    const existing = await lstat(dir.at(name)).catch(missingAsUndefined);
    if (existing?.isSymbolicLink()) throw changed(label);
    if (existing?.isDirectory()) throw new ToolError(`${label.tool}: ${label.requested} is a directory`);
    if (existing) checkRegular(existing, label);
    const mode = existing ? existing.mode & 0o7777 : 0o666;
    const temporary = `.${name.slice(0, 100)}.${randomBytes(6).toString('hex')}.tmp`;
    // O_EXCL|O_NOFOLLOW: the temporary name cannot be pre-planted as a link.
    const handle = await open(
      dir.at(temporary),
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW,
      mode,
    );
    try {
      await handle.writeFile(data, 'utf8');
      // The umask may have narrowed the mode; an existing file's mode is kept exactly.
      if (existing) await handle.chmod(mode);
      await handle.sync();
      await handle.close();
      await rename(dir.at(temporary), dir.at(name));
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(dir.at(temporary), { force: true });
      throw error;
    }
    await dir.verify(label);
    await dir.handle.sync().catch(() => undefined);
  } finally {
    await dir.close();
  }
}

/** Deletes `absolute`'s own directory entry (a link is removed, never followed); false if missing. */
export async function removeInRoot(
  sandbox: PathSandbox,
  absolute: string,
  label: FileLabel,
): Promise<boolean> {
  const parent = await realpathOfExistingPrefix(path.dirname(absolute));
  const realRoot = await realRootHolding(sandbox, parent, label);
  let dir: Folder;
  try {
    dir = await openFolder(realRoot, parent, false, label);
  } catch (error) {
    if (error instanceof MissingFolder) return false;
    throw error;
  }
  try {
    const name = path.basename(absolute);
    const existing = await lstat(dir.at(name)).catch(missingAsUndefined);
    if (existing === undefined) return false;
    if (existing.isDirectory()) throw new ToolError(`${label.tool}: ${label.requested} is a directory`);
    await rm(dir.at(name));
    return true;
  } finally {
    await dir.close();
  }
}

/** Lists a folder inside root; undefined when `absolute` is not a folder. */
export async function listFolderInRoot(
  sandbox: PathSandbox,
  absolute: string,
  label: FileLabel,
): Promise<{ real: string; entries: Dirent[] } | undefined> {
  const real = await realpath(absolute);
  const realRoot = await realRootHolding(sandbox, real, label);
  if (!(await lstat(real)).isDirectory()) return undefined;
  const dir = await openFolder(realRoot, real, false, label);
  try {
    const entries = await readdir(dir.at('.'), { withFileTypes: true });
    await dir.verify(label);
    return { real, entries };
  } finally {
    await dir.close();
  }
}

/** An open folder and how to name things in it without looking its path up again. */
interface Folder {
  handle: FileHandle;
  real: string;
  at(name: string): string;
  /** Without /proc: the folder at `real` must still be the one opened (no link swapped in). */
  verify(label: FileLabel): Promise<void>;
  close(): Promise<void>;
}

class MissingFolder extends ToolError {}

/** Opens `realDir` (a real path inside `realRoot`) from the root down, never following a link. */
async function openFolder(
  realRoot: string,
  realDir: string,
  create: boolean,
  label: FileLabel,
): Promise<Folder> {
  let current = folder(await open(realRoot, constants.O_RDONLY | DIRECTORY), realRoot);
  try {
    for (const part of path.relative(realRoot, realDir).split(path.sep).filter(Boolean)) {
      const child = current.at(part);
      const handle = await openChildFolder(child, create, label);
      await current.close();
      current = folder(handle, path.join(current.real, part));
    }
    await current.verify(label);
    return current;
  } catch (error) {
    await current.close();
    throw error;
  }
}

async function openChildFolder(child: string, create: boolean, label: FileLabel): Promise<FileHandle> {
  const flags = constants.O_RDONLY | DIRECTORY | NOFOLLOW;
  try {
    return await open(child, flags);
  } catch (error) {
    const code = errno(error);
    if (code === 'ENOENT' && create) {
      await mkdir(child).catch((mkdirError: unknown) => {
        if (errno(mkdirError) !== 'EEXIST') throw mkdirError;
      });
      return openChildFolder(child, false, label);
    }
    if (code === 'ENOENT') throw new MissingFolder(`${label.tool}: no such folder for ${label.requested}`);
    if (code === 'ELOOP') throw changed(label);
    if (code === 'ENOTDIR')
      throw new ToolError(`${label.tool}: a parent of ${label.requested} is a file, not a directory`);
    throw error;
  }
}

function folder(handle: FileHandle, real: string): Folder {
  return {
    handle,
    real,
    at: (name) => (PROC_FD ? `${PROC_FD}/${handle.fd}/${name}` : path.join(real, name)),
    verify: async (label) => {
      if (PROC_FD) return;
      const [opened, now, resolved] = await Promise.all([
        handle.stat(),
        lstat(real).catch(() => undefined),
        realpath(real).catch(() => undefined),
      ]);
      if (resolved !== real || now?.dev !== opened.dev || now?.ino !== opened.ino) throw changed(label);
    },
    close: () => handle.close().catch(() => undefined),
  };
}

function checkRegular(stats: Stats, label: FileLabel): void {
  if (!stats.isFile()) {
    throw new ToolError(
      `${label.tool}: ${label.requested} is ${specialKind(stats)}; only regular files can be used`,
    );
  }
  if (stats.nlink > 1) {
    throw new ToolError(
      `${label.tool}: refusing ${label.requested}: it has ${stats.nlink} hard links (another name may be outside the root)`,
    );
  }
}

function specialKind(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

function changed(label: FileLabel): ToolError {
  return new ToolError(
    `${label.tool}: ${label.requested} changed while being opened (a symbolic link appeared); refused`,
  );
}

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function missingAsUndefined(error: unknown): undefined {
  const code = errno(error);
  if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
  throw error;
}
