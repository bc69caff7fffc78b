/**
 * A plugin folder's files, read without following links: the list (regular files only, sorted,
 * capped), its content hash (what an install pins and a load compares) and a copy into the
 * user's state folder (links and special files left out, written under a temporary name and
 * renamed into place, so a half copy never looks installed).
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { chmod, copyFile, lstat, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** A plugin bigger than this is refused: it is a folder of prompts and scripts, not a repository dump. */
export const MAX_FILES = 5_000;
export const MAX_BYTES = 64 * 1024 * 1024;
/** Never copied or hashed: version-control data and dependencies a plugin's own install would make. */
const SKIPPED = new Set(['.git', 'node_modules']);

export interface FolderFile {
  /** Relative, with `/` separators. */
  relative: string;
  size: number;
  executable: boolean;
}

export class PluginFolderError extends Error {
  override readonly name = 'PluginFolderError';
}

/** Every regular file below `root` (links and special files skipped); throws past the caps. */
export function folderFiles(root: string): FolderFile[] {
  const out: FolderFile[] = [];
  let bytes = 0;
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (SKIPPED.has(name)) continue;
      const full = path.join(dir, name);
      const stats = lstatSync(full);
      const relative = prefix === '' ? name : `${prefix}/${name}`;
      if (stats.isDirectory()) walk(full, relative);
      else if (stats.isFile()) {
        bytes += stats.size;
        out.push({ relative, size: stats.size, executable: (stats.mode & 0o111) !== 0 });
        if (out.length > MAX_FILES)
          throw new PluginFolderError(`${root}: more than ${MAX_FILES} files: not a plugin folder`);
        if (bytes > MAX_BYTES)
          throw new PluginFolderError(
            `${root}: more than ${MAX_BYTES / 1024 / 1024} MB: not a plugin folder`,
          );
      }
    }
  };
  walk(root, '');
  return out;
}

/** `sha256:<hex>` over every file's path, mode bit and content: any edit, addition or removal changes it. */
export function folderHash(root: string): string {
  const hash = createHash('sha256');
  for (const file of folderFiles(root)) {
    hash.update(`${file.relative}\0${file.executable ? 'x' : '-'}\0${file.size}\0`);
    hash.update(readFileSync(path.join(root, file.relative)));
  }
  return `sha256:${hash.digest('hex')}`;
}

/**
 * Copies `source` to `target` (which must not exist): into `<target>.partial-<pid>` first, then
 * renamed. Links in the source are not copied (a planted link cannot pull a file from elsewhere).
 */
export async function copyFolder(source: string, target: string): Promise<void> {
  const files = folderFiles(source);
  const partial = `${target}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true, mode: 0o755 });
  try {
    for (const file of files) {
      const to = path.join(partial, ...file.relative.split('/'));
      await mkdir(path.dirname(to), { recursive: true });
      await copyFile(path.join(source, ...file.relative.split('/')), to);
      await chmod(to, file.executable ? 0o755 : 0o644);
    }
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
}

/** Removes a folder the store made, refusing a link (a planted one could aim the removal elsewhere). */
export async function removeStoreFolder(dir: string): Promise<void> {
  const stats = await lstat(dir).catch(() => undefined);
  if (!stats) return;
  if (!stats.isDirectory()) throw new PluginFolderError(`refusing to remove ${dir}: not a folder`);
  await rm(dir, { recursive: true, force: true });
}

/** `relative` resolved inside `root`, or undefined when it leaves it (`../x`, an absolute path). */
export function insideRoot(root: string, relative: string): string | undefined {
  const full = path.resolve(root, relative);
  const back = path.relative(root, full);
  if (back.startsWith('..') || path.isAbsolute(back)) return undefined;
  return full;
}

/** Whether `file` is a regular file (not a link). */
export function isPlainFile(file: string): boolean {
  try {
    return lstatSync(file).isFile();
  } catch {
    return false;
  }
}

/** Whether `dir` is a real folder (not a link). */
export function isPlainDir(dir: string): boolean {
  try {
    return lstatSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Whether `full` exists and its real path (links resolved) is inside `root`'s. */
export function reallyInside(root: string, full: string): boolean {
  try {
    const relative = path.relative(realpathSync(root), realpathSync(full));
    return !relative.startsWith('..') && !path.isAbsolute(relative);
  } catch {
    return false;
  }
}
