/**
 * Whole texts of MCP results cut by the token limit, kept in `<project>/.geekagent/tool-output/`
 * so the model can page through them with `read` (the cut note gives the path). Files are written
 * atomically and never through a symlink (the folder is a checked real folder, git-ignored by its
 * own `.gitignore`); disk use is
 * bounded: beyond the newest `maxFiles` files or `maxBytes` bytes, the oldest are removed.
 */
import { randomBytes } from 'node:crypto';
import { lstat, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../util/safe-write.js';
import { ensureStateDir, ignoreInGit } from '../util/state-dir.js';

export const TOOL_OUTPUT_DIR = 'tool-output';

export interface OutputLimits {
  maxFiles: number;
  maxBytes: number;
}

export const DEFAULT_OUTPUT_LIMITS: OutputLimits = { maxFiles: 50, maxBytes: 100 * 1024 * 1024 };

/** Saves `text` as a new file; returns its absolute path. Old files beyond the limits are removed. */
export async function saveToolOutput(
  projectDir: string,
  text: string,
  limits: OutputLimits = DEFAULT_OUTPUT_LIMITS,
): Promise<string> {
  const dir = await ensureStateDir(projectDir, TOOL_OUTPUT_DIR);
  await ignoreInGit(dir);
  const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`;
  const file = path.join(dir, `${id}.txt`);
  await writeFileAtomic(file, text, { mode: 0o600 });
  await prune(dir, file, limits);
  return file;
}

/** Oldest first out, keeping the file just written; only regular `.txt` files are counted. */
async function prune(dir: string, keep: string, limits: OutputLimits): Promise<void> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.txt'));
  const files: Array<{ file: string; size: number; mtime: number }> = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const info = await lstat(file).catch(() => undefined);
    if (info?.isFile()) files.push({ file, size: info.size, mtime: info.mtimeMs });
  }
  files.sort((a, b) => b.mtime - a.mtime || (a.file === keep ? -1 : b.file === keep ? 1 : 0));
  let count = 0;
  let bytes = 0;
  for (const entry of files) {
    count++;
    bytes += entry.size;
    const over = count > limits.maxFiles || bytes > limits.maxBytes;
    if (over && entry.file !== keep) await unlink(entry.file).catch(() => undefined);
  }
}
