/**
 * The sessions of one project folder, kept in the user's state folder (files.ts): reading a session
 * file back, the list (`/sessions`), the latest one (`--continue`), renaming (`/save <id>`), and the
 * small index (`index.json` beside them: title, times, turns, size per session) that keeps the list
 * fast. The index is a cache — written atomically under a lock, and reconciled with the files
 * whenever they disagree — so a run killed before updating it loses nothing. Nothing is deleted.
 */
import { link, readdir, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { withFileLock } from '../util/file-lock.js';
import { readJsonFile, writeJsonFileAtomic } from '../util/json-file.js';
import * as z from '../util/schema.js';
import { checkId, ensureSessionsDir, randomId, SessionError, sessionFile, sessionsDir } from './files.js';
import { type Replayed, replay } from './log.js';

export interface SessionSummary {
  id: string;
  title: string;
  /** ISO times. */
  created: string;
  updated: string;
  turns: number;
}

const entrySchema = z.object({
  title: z.string(),
  created: z.string(),
  updated: z.string(),
  turns: z.number(),
  size: z.number(),
});
const indexSchema = z.object({
  version: z.literal(1),
  legacyImported: z.optional(z.boolean()),
  /** When the sessions an earlier version kept in the project folder were imported (once). */
  projectImported: z.optional(z.string()),
  sessions: z.record(z.string(), entrySchema),
});
type IndexEntry = z.infer<typeof entrySchema>;
type IndexFile = z.infer<typeof indexSchema>;

/** Waiting this long for another agent's index lock is enough: the index is only a cache. */
const INDEX_LOCK_WAIT_MS = 2_000;

export class SessionStore {
  readonly dir: string;

  constructor(
    readonly projectDir: string,
    /** The user's state folder (`$GEEKAGENT_HOME` or `~/.geekagent`). */
    readonly userDir: string,
  ) {
    this.dir = sessionsDir(userDir, projectDir);
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

  /** Reads a session back; a missing one is a SessionError naming how to find the right id. */
  async load(id: string): Promise<Replayed> {
    checkId(id);
    let text: string;
    try {
      text = await readFile(this.file(id), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new SessionError(`no session ${id} in ${this.projectDir} (/sessions lists them)`);
      }
      throw error;
    }
    return replay(text);
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
    const index = await this.readIndex();
    const fresh: Record<string, IndexEntry> = {};
    let changed = false;
    for (const id of await this.ids()) {
      const info = await stat(this.file(id)).catch(() => undefined);
      if (!info) continue;
      const known = index.sessions[id];
      if (known && known.size === info.size) {
        fresh[id] = known;
        continue;
      }
      const replayed = await this.load(id).catch(() => undefined);
      if (!replayed) continue;
      fresh[id] = {
        title: replayed.title,
        created: replayed.header?.created ?? known?.created ?? info.birthtime.toISOString(),
        updated: info.mtime.toISOString(),
        turns: replayed.turns,
        size: info.size,
      };
      changed = true;
    }
    if (changed)
      await this.updateIndex((current) => ({ ...current, sessions: { ...current.sessions, ...fresh } }));
    return Object.entries(fresh)
      .map(([id, entry]) => ({
        id,
        title: entry.title,
        created: entry.created,
        updated: entry.updated,
        turns: entry.turns,
      }))
      .sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0));
  }

  /** Records what a session looks like now (after its first message, at exit). */
  async remember(id: string, entry: Omit<IndexEntry, 'size'>): Promise<void> {
    const size = await stat(this.file(id)).then(
      (info) => info.size,
      () => 0,
    );
    await this.updateIndex((current) => ({
      ...current,
      sessions: { ...current.sessions, [id]: { ...entry, size } },
    }));
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
    await this.updateIndex((current) => {
      const { [from]: entry, ...rest } = current.sessions;
      return { ...current, sessions: entry ? { ...rest, [to]: entry } : rest };
    });
  }

  /** Whether the described system's sessions.json was imported already (it is imported once). */
  async legacyImported(): Promise<boolean> {
    return (await this.readIndex()).legacyImported === true;
  }

  async markLegacyImported(entries: Record<string, Omit<IndexEntry, 'size'>>): Promise<void> {
    const sizes: Record<string, IndexEntry> = {};
    for (const [id, entry] of Object.entries(entries)) {
      const size = await stat(this.file(id)).then(
        (info) => info.size,
        () => 0,
      );
      sizes[id] = { ...entry, size };
    }
    await this.updateIndex((current) => ({
      ...current,
      legacyImported: true,
      sessions: { ...current.sessions, ...sizes },
    }));
  }

  /** Whether the sessions kept in the project folder by an earlier version were imported. */
  async projectImported(): Promise<boolean> {
    return (await this.readIndex()).projectImported !== undefined;
  }

  async markProjectImported(): Promise<void> {
    await this.updateIndex((current) => ({ ...current, projectImported: new Date().toISOString() }));
  }

  private get indexFile(): string {
    return path.join(this.dir, 'index.json');
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

  private async readIndex(): Promise<IndexFile> {
    const empty: IndexFile = { version: 1, sessions: {} };
    try {
      const read = await readJsonFile(this.indexFile);
      if (read.kind === 'missing') return empty;
      const parsed = indexSchema.safeParse(read.value);
      return parsed.success ? parsed.data : empty;
    } catch {
      // A damaged index is rebuilt from the files.
      return empty;
    }
  }

  /** Read-modify-write under the lock; another agent holding it too long means skip (a cache). */
  private async updateIndex(change: (current: IndexFile) => IndexFile): Promise<void> {
    ensureSessionsDir(this.userDir, this.dir);
    await withFileLock(
      this.indexFile,
      async () => {
        await writeJsonFileAtomic(this.indexFile, change(await this.readIndex()));
      },
      { waitMs: INDEX_LOCK_WAIT_MS },
    ).catch(() => undefined);
  }
}
