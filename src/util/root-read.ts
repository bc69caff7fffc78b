/**
 * Reading a file that must be a regular file inside a folder (the project root) when neither its
 * name nor its content can be trusted: a planted link, FIFO, device or extra hard link cannot make
 * it another file. The file is opened by its real path without following a final link and without
 * blocking, then checked: the opened file must be the one at that real path inside the folder
 * (on Linux, the kernel's own name for it too). The file tools (workspace/root-files.ts) share
 * the identity check; project instructions use `readInsideRoot`.
 */
import { constants, existsSync, type Stats } from 'node:fs';
import { type FileHandle, lstat, open, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;
/** Linux names an open file `/proc/self/fd/N`: its target is where the opened file really is. */
export const PROC_FD =
  process.platform === 'linux' && existsSync('/proc/self/fd') ? '/proc/self/fd' : undefined;

/** Whether `candidate` is `root` or below it (`..notes` is a fine name inside). */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return (
    relative === '' ||
    (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  );
}

/**
 * True when the opened file is the one inside root: on Linux the kernel's own name for it must be
 * inside; everywhere, the file now at its real path must be the opened one (same dev/ino) — with
 * a single hard link, that name is its only one.
 */
export async function openedInside(
  handle: FileHandle,
  stats: Stats,
  openedPath: string,
  realRoot: string,
): Promise<boolean> {
  if (PROC_FD) {
    const where = await readlink(`${PROC_FD}/${handle.fd}`).catch(() => undefined);
    if (where === undefined || !isInside(realRoot, where)) return false;
  }
  const real = await realpath(openedPath).catch(() => undefined);
  if (real === undefined || !isInside(realRoot, real)) return false;
  const now = await lstat(real).catch(() => undefined);
  return now !== undefined && now.dev === stats.dev && now.ino === stats.ino;
}

export type InsideRead =
  | { kind: 'missing' }
  /** `reason` completes "skipped: <name> is …" — short, for the model and the person. */
  | { kind: 'refused'; reason: string }
  | { kind: 'text'; text: string; real: string; cut: boolean };

/**
 * Reads `file` as UTF-8 text (its first `maxBytes` bytes) when it is a regular file inside
 * `realRoot` with one hard link. A link is followed only to a regular file inside `realRoot`
 * (`CLAUDE.md -> AGENTS.md`), and that target is opened safely; a link out of the folder, a
 * special file or a hard-linked file is refused with the reason, never read.
 */
export async function readInsideRoot(file: string, realRoot: string, maxBytes: number): Promise<InsideRead> {
  const read = await readBytesInsideRoot(file, realRoot, maxBytes);
  if (read.kind !== 'bytes') return read;
  return { kind: 'text', text: read.bytes.toString('utf8'), real: read.real, cut: read.cut };
}

export type InsideBytes =
  | Exclude<InsideRead, { kind: 'text' }>
  /** `size`: the whole file's (the bytes stop at `maxBytes`). */
  | { kind: 'bytes'; bytes: Buffer; real: string; cut: boolean; size: number };

/** `readInsideRoot` for bytes (an attached image, a file that may be binary). */
export async function readBytesInsideRoot(
  file: string,
  realRoot: string,
  maxBytes: number,
): Promise<InsideBytes> {
  const own = await lstat(file).catch(() => undefined);
  if (own === undefined) return { kind: 'missing' };
  const link = own.isSymbolicLink();
  const real = await realpath(file).catch(() => undefined);
  if (real === undefined) return link ? { kind: 'refused', reason: 'a symbolic link to nothing' } : missing;
  if (!isInside(realRoot, real))
    return refused(
      link ? 'a symbolic link to a file outside the project folder' : 'outside the project folder',
    );
  const before = await lstat(real).catch(() => undefined);
  if (before === undefined || before.isDirectory()) return missing;
  const problem = notPlain(before);
  if (problem) return refused(problem);
  let handle: FileHandle;
  try {
    handle = await open(real, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return missing;
    return refused(
      code === 'ELOOP' ? 'changing while being opened (a symbolic link appeared)' : `unreadable (${code})`,
    );
  }
  try {
    const stats = await handle.stat();
    const after = notPlain(stats);
    if (after) return refused(after);
    if (!(await openedInside(handle, stats, real, realRoot)))
      return refused('changing while being opened (it moved out of the project folder)');
    const length = Math.min(stats.size, maxBytes);
    const buffer = Buffer.alloc(length);
    let done = 0;
    while (done < length) {
      const { bytesRead } = await handle.read(buffer, done, length - done, done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return {
      kind: 'bytes',
      bytes: buffer.subarray(0, done),
      real,
      cut: stats.size > maxBytes,
      size: stats.size,
    };
  } finally {
    await handle.close();
  }
}

const missing: InsideBytes = { kind: 'missing' };

function refused(reason: string): InsideBytes {
  return { kind: 'refused', reason };
}

/** Why a file is not a plain regular file with one name, or undefined when it is. */
function notPlain(stats: Stats): string | undefined {
  if (stats.isFIFO()) return 'a FIFO (named pipe), not a regular file';
  if (stats.isSocket()) return 'a socket, not a regular file';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device, not a regular file';
  if (!stats.isFile()) return 'not a regular file';
  if (stats.nlink > 1)
    return `a file with ${stats.nlink} hard links (another name of it may be outside the project folder)`;
  return undefined;
}
