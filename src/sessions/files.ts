/**
 * Where sessions live and how their files are touched: `<userDir>/projects/<key>/sessions/<id>.jsonl`
 * (the user's own state, keyed by the project folder's real path: config/project-state.ts), ids of
 * `[A-Za-z0-9_-]`, generated ones 8 characters. State is never written through a symlink: a
 * symlinked folder below the user's state folder is refused, and session files are opened with
 * O_NOFOLLOW. Earlier versions kept them in the project's `.geekagent/sessions`: only read, once,
 * in a folder the person trusts (project-import.ts).
 */
import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import { userProjectDir } from '../config/project-state.js';
import { UnsafePathError } from '../util/safe-write.js';
import { ensureUserStateFolder } from '../util/state-dir.js';

export const ID_PATTERN = /^[A-Za-z0-9_-]+$/;
const MAX_ID_LENGTH = 64;
const ID_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** A session the person named that cannot be used; the message says why and what to do. */
export class SessionError extends Error {
  override readonly name = 'SessionError';
}

/** The id is well formed but no session of this folder has it (an editor starts afresh on it). */
export class SessionNotFoundError extends SessionError {
  constructor(
    readonly id: string,
    message: string,
  ) {
    super(message);
  }
}

/** This project folder's sessions, in the user's state folder. */
export function sessionsDir(userDir: string, projectDir: string): string {
  return path.join(userProjectDir(userDir, projectDir), 'sessions');
}

/** Where earlier versions kept a folder's sessions (a cloned repository can plant files there). */
export function projectSessionsDir(projectDir: string): string {
  return path.join(projectDir, '.geekagent', 'sessions');
}

export function sessionFile(dir: string, id: string): string {
  return path.join(dir, `${id}.jsonl`);
}

/** Throws a SessionError naming the rule when `id` is not a usable session id. */
export function checkId(id: string): void {
  if (!ID_PATTERN.test(id) || id.length > MAX_ID_LENGTH) {
    throw new SessionError(
      `invalid session id ${JSON.stringify(id)}: use 1–${MAX_ID_LENGTH} letters, digits, _ or -`,
    );
  }
}

/**
 * 8 characters, no look-alikes (0/o, 1/l): short enough to type after `--resume`. Math.random, not
 * node:crypto: an id is a name, not a secret (the store checks it is unused), and every start makes
 * one before its first request (crypto would load for it, ~5 ms).
 */
export function randomId(): string {
  let id = '';
  for (let i = 0; i < 8; i++) id += ID_ALPHABET[Math.floor(Math.random() * ID_ALPHABET.length)];
  return id;
}

/** Creates `dir` below the user's state folder `base` (mode 0700), refusing a symlinked folder on the way. */
export function ensureSessionsDir(base: string, dir: string): void {
  ensureUserStateFolder(base, dir, 'sessions');
}

/**
 * An append-only session file, written line by line with one write() each (synchronously, so a
 * line is in the file before the next model request is even built). Opened on the first line.
 */
export class AppendFile {
  private fd: number | undefined;

  constructor(
    readonly file: string,
    /** Written first when the file is new (the session header). */
    private readonly header: () => string,
    /** The user's state folder: the folders below it are created and checked on open. */
    private readonly base: string,
  ) {}

  get opened(): boolean {
    return this.fd !== undefined;
  }

  append(text: string): void {
    if (this.fd === undefined) this.fd = this.open();
    writeSync(this.fd, text);
  }

  /** Makes the file exist (its header written) without a line of its own. */
  ensure(): void {
    if (this.fd === undefined) this.fd = this.open();
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  private open(): number {
    ensureSessionsDir(this.base, path.dirname(this.file));
    const fd = openSync(
      this.file,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0),
      0o600,
    );
    const info = fstatSync(fd);
    if (!info.isFile()) {
      closeSync(fd);
      throw new UnsafePathError(`refusing to write ${this.file}: it is not a regular file`);
    }
    if (info.size === 0) {
      writeSync(fd, this.header());
    } else if (!endsWithNewline(this.file, info.size)) {
      // A run killed mid-line left a torn last line: end it, so the next event is a line of its own.
      writeSync(fd, '\n');
    }
    return fd;
  }
}

function endsWithNewline(file: string, size: number): boolean {
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}
