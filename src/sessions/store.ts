/**
 * The sessions of one project folder, kept in the user's state folder (files.ts): reading a session
 * file back, the list (`/sessions`), the latest one (`--continue`), renaming (`/save <id>`), and the
 * small index (`index.ndjson` beside them: title, times, turns, size per session; index-log.ts)
 * that keeps the list fast. The index is a cache — appended to, and reconciled with the files
 * whenever they disagree — so a run killed before updating it loses nothing. Nothing is deleted.
 */
import { link, readdir, readFile, stat, unlink } from 'node:fs/promises';
import { writeFileAtomic } from '../util/safe-write.js';
import {
  checkId,
  ensureSessionsDir,
  randomId,
  SessionError,
  SessionNotFoundError,
  sessionFile,
  sessionsDir,
} from './files.js';
import { type IndexEntry, type IndexLine, SessionIndex } from './index-log.js';
import { headerLine, type Replayed, replay } from './log.js';

export interface SessionSummary {
  id: string;
  title: string;
  /** ISO times. */
  created: string;
  updated: string;
  turns: number;
}

export class SessionStore {
  readonly dir: string;
  private readonly index: SessionIndex;

  constructor(
    readonly projectDir: string,
    /** The user's state folder (`$GEEKAGENT_HOME` or `~/.geekagent`). */
    readonly userDir: string,
  ) {
    this.dir = sessionsDir(userDir, projectDir);
    this.index = new SessionIndex(this.dir, userDir);
  }

  file(id: string): string {
    return sessionFile(this.dir, id);
  }

  async exists(id: string): Promise<boolean> {
    try {
      return (await stat(this.file(id))).isFile();
    } catch {
      return false;
    }
  }

  /** A fresh generated id no session of this folder has. */
  async newId(): Promise<string> {
    for (;;) {
      const id = randomId();
      if (!(await this.exists(id))) return id;
    }
  }

  /** Reads a session back; a missing one is a SessionNotFoundError naming how to find the right id. */
  async load(id: string): Promise<Replayed> {
    return replay(await this.text(id));
  }

  /**
   * A copy of a session under a fresh id (an editor's `session/fork`): the same changes after a
   * header of its own, written atomically; the source stays as it is. Returns the new id.
   */
  async fork(from: string, now: Date = new Date()): Promise<string> {
    const lines = (await this.text(from)).split('\n');
    const id = await this.newId();
    // The header is the first line (log.ts); everything after it is replayed as it is.
    const body = (isHeader(lines[0] ?? '') ? lines.slice(1) : lines).join('\n');
    ensureSessionsDir(this.userDir, this.dir);
    await writeFileAtomic(
      this.file(id),
      headerLine({ id, created: now.toISOString(), cwd: this.projectDir }) + body,
      { mode: 0o600, noMkdir: true },
    );
    return id;
  }

  private async text(id: string): Promise<string> {
    checkId(id);
    try {
      return await readFile(this.file(id), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new SessionNotFoundError(id, `no session ${id} in ${this.projectDir} (/sessions lists them)`);
      }
      throw error;
    }
  }

  /** The session written to most recently, if any. */
  async latest(): Promise<string | undefined> {
    let best: { id: string; mtime: number } | undefined;
    for (const id of await this.ids()) {
      const mtime = await stat(this.file(id)).then(
        (info) => info.mtimeMs,
        () => -1,
      );
      if (mtime >= 0 && (!best || mtime > best.mtime)) best = { id, mtime };
    }
    return best?.id;
  }

  /** Every session, newest first; files the index does not know (or knows stale) are read again. */
  async list(): Promise<SessionSummary[]> {
    const index = await this.index.read();
    const fresh: Record<string, IndexEntry> = {};
    // The file's own time, finer than `updated`'s milliseconds: two sessions written within one
    // millisecond still list newest first.
    const written: Record<string, number> = {};
    const changed: IndexLine[] = [];
    for (const id of await this.ids()) {
      const info = await stat(this.file(id), { bigint: true }).catch(() => undefined);
      if (!info) continue;
      written[id] = Number(info.mtimeNs % 1_000_000n); // the nanoseconds within its millisecond
      const known = index.sessions[id];
      if (known && known.size === Number(info.size)) {
        fresh[id] = known;
        continue;
      }
      const replayed = await this.load(id).catch(() => undefined);
      if (!replayed) continue;
      const entry = {
        title: replayed.title,
        created: replayed.header?.created ?? known?.created ?? info.birthtime.toISOString(),
        updated: info.mtime.toISOString(),
        turns: replayed.turns,
        size: Number(info.size),
      };
      fresh[id] = entry;
      changed.push({ session: id, entry });
    }
    await this.updateIndex(changed);
    return Object.entries(fresh)
      .map(([id, entry]) => ({
        id,
        title: entry.title,
        created: entry.created,
        updated: entry.updated,
        turns: entry.turns,
      }))
      .sort((a, b) =>
        a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : (written[b.id] ?? 0) - (written[a.id] ?? 0),
      );
  }

  /** Records what a session looks like now (after its first message, at exit). */
  async remember(id: string, entry: Omit<IndexEntry, 'size'>): Promise<void> {
    const size = await stat(this.file(id)).then(
      (info) => info.size,
      () => 0,
    );
    await this.updateIndex([{ session: id, entry: { ...entry, size } }]);
  }

  /** `/save <id>`: the session's file takes the new name; an existing session is never replaced. */
  async rename(from: string, to: string): Promise<void> {
    checkId(to);
    if (await this.exists(to))
      throw new SessionError(`a session named ${to} already exists (pick another id)`);
    // link + unlink: unlike rename, link fails instead of replacing a file created meanwhile.
    await link(this.file(from), this.file(to)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST')
        throw new SessionError(`a session named ${to} already exists (pick another id)`);
      throw error;
    });
    await unlink(this.file(from));
    await this.updateIndex([{ renamed: { from, to } }]);
  }

  /** Whether the described system's sessions.json was imported already (it is imported once). */
  async legacyImported(): Promise<boolean> {
    return (await this.index.read()).legacyImported === true;
  }

  async markLegacyImported(entries: Record<string, Omit<IndexEntry, 'size'>>): Promise<void> {
    const lines: IndexLine[] = [];
    for (const [id, entry] of Object.entries(entries)) {
      const size = await stat(this.file(id)).then(
        (info) => info.size,
        () => 0,
      );
      lines.push({ session: id, entry: { ...entry, size } });
    }
    await this.updateIndex([...lines, { legacyImported: true }]);
  }

  /** Whether the sessions kept in the project folder by an earlier version were imported. */
  async projectImported(): Promise<boolean> {
    return (await this.index.read()).projectImported !== undefined;
  }

  async markProjectImported(): Promise<void> {
    await this.updateIndex([{ projectImported: new Date().toISOString() }]);
  }

  private async ids(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    return names.filter((name) => name.endsWith('.jsonl')).map((name) => name.slice(0, -'.jsonl'.length));
  }

  /** Appends what changed; the index is a cache, so a write that fails is left for the next run. */
  private async updateIndex(lines: IndexLine[]): Promise<void> {
    await this.index.append(lines).catch(() => undefined);
  }
}

function isHeader(line: string): boolean {
  try {
    return (JSON.parse(line) as { type?: unknown } | null)?.type === 'session';
  } catch {
    return false;
  }
}
