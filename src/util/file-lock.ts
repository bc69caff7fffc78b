/**
 * A cross-process lock around read-modify-write of a state file: `<file>.lock` created
 * exclusively; a lock older than the stale age (its holder died) is broken. Two agents answering
 * "always" at once, or two `mcp add`s, never lose each other's change.
 */
import { mkdir, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';

export interface FileLockOptions {
  /** How long to wait for another holder before giving up (ms). */
  waitMs?: number;
  /** A lock file older than this is considered abandoned (ms). */
  staleMs?: number;
  /** Mode of the lock file and of a created parent folder. */
  mode?: number;
}

const DEFAULT_WAIT_MS = 15_000;
const DEFAULT_STALE_MS = 30_000;
const RETRY_MS = 25;

/** Runs `body` while holding `<file>.lock`. */
export async function withFileLock<T>(
  file: string,
  body: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const lock = `${file}.lock`;
  await mkdir(path.dirname(lock), {
    recursive: true,
    ...(options.mode ? { mode: options.mode | 0o100 } : {}),
  });
  const deadline = Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS);
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  for (;;) {
    try {
      const handle = await open(lock, 'wx', options.mode ?? 0o600);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > staleMs) await rm(lock, { force: true });
      else if (Date.now() > deadline) throw new Error(`another agent holds ${lock}; try again`);
      else await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
  try {
    return await body();
  } finally {
    await rm(lock, { force: true });
  }
}
