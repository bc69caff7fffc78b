/**
 * A background shell's output file in the person's state folder
 * (`<userDir>/projects/<key>/shells/<stamp>-<pid>-<id>.log`): the folders created without following
 * a link, the file created exclusively (O_EXCL|O_NOFOLLOW, 0600, so nothing planted there is
 * written through), appended to up to a size cap; the oldest files beyond a count are removed.
 */
import { closeSync, constants, openSync, readdirSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { userProjectDir } from '../../config/project-state.js';
import { ensureUserStateFolder } from '../../util/state-dir.js';

/** Past this many bytes a log keeps no more (a chatty dev server must not fill the disk). */
export const LOG_LIMIT_BYTES = 16 * 1024 * 1024;
/** Logs kept per project folder: older ones are removed when a new shell starts. */
const LOGS_KEPT = 50;

export function shellLogDir(userDir: string, projectDir: string): string {
  return path.join(userProjectDir(userDir, projectDir), 'shells');
}

export class ShellLog {
  private fd: number | undefined;
  private written = 0;
  private full = false;

  private constructor(
    readonly file: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  /** Creates the log for shell `id`; throws (UnsafePathError, EEXIST) when it cannot be made safely. */
  static create(userDir: string, dir: string, id: string): ShellLog {
    ensureUserStateFolder(userDir, dir, 'background shell output');
    prune(dir);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(dir, `${stamp}-${process.pid}-${id}.log`);
    const fd = openSync(
      file,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
      0o600,
    );
    return new ShellLog(file, fd);
  }

  append(chunk: string): void {
    if (this.fd === undefined || this.full) return;
    const bytes = Buffer.from(chunk, 'utf8');
    try {
      if (this.written + bytes.length > LOG_LIMIT_BYTES) {
        this.full = true;
        writeSync(this.fd, `\n[GeekAgent: this log stops at ${LOG_LIMIT_BYTES / 1024 / 1024} MB]\n`);
        return;
      }
      writeSync(this.fd, bytes);
      this.written += bytes.length;
    } catch {
      // A full disk must not stop the shell or the session: the log just ends here.
      this.full = true;
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    this.fd = undefined;
  }
}

/** Removes the oldest logs so at most LOGS_KEPT - 1 remain before a new one (names sort by time). */
function prune(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.log'));
  } catch {
    return;
  }
  names.sort();
  for (const name of names.slice(0, Math.max(0, names.length - (LOGS_KEPT - 1)))) {
    try {
      unlinkSync(path.join(dir, name));
    } catch {
      // another agent removed it, or it is in use elsewhere: not ours to insist on
    }
  }
}
