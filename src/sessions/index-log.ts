/**
 * The sessions index as an append-only log (`index.ndjson` beside the session files): each update
 * is one line — a session's summary, a rename, an import mark — appended with O_APPEND and
 * O_NOFOLLOW, so a run writes what changed instead of rereading and rewriting the whole index, and
 * two agents appending at once both keep their lines. Reading folds the lines in order (a torn or
 * unknown line is skipped: the index is a cache, reconciled with the files by size). When the log
 * has grown to several times the sessions it describes it is rewritten once, atomically, under the
 * lock. An earlier version's `index.json` is read as the starting point.
 */
import { closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { withFileLock } from '../util/file-lock.js';
import { writeFileAtomic } from '../util/safe-write.js';
import * as z from '../util/schema.js';
import { ensureSessionsDir } from './files.js';

const buildEntrySchema = () =>
  z.object({
    title: z.string(),
    created: z.string(),
    updated: z.string(),
    turns: z.number(),
    size: z.number(),
  });
export type IndexEntry = z.infer<ReturnType<typeof buildEntrySchema>>;

export interface IndexState {
  legacyImported?: boolean;
  /** When the sessions an earlier version kept in the project folder were imported (once). */
  projectImported?: string;
  sessions: Record<string, IndexEntry>;
}

const buildLineSchema = () =>
  z.union([
    z.object({ session: z.string(), entry: buildEntrySchema() }),
    z.object({ renamed: z.object({ from: z.string(), to: z.string() }) }),
    z.object({ legacyImported: z.literal(true) }),
    z.object({ projectImported: z.string() }),
  ]);
/** One line of the log. Built when the log is read (a start that does not read it builds none). */
const lineSchema = z.lazySchema(buildLineSchema);
export type IndexLine = z.infer<ReturnType<typeof buildLineSchema>>;

/** The index of version 1 (`index.json`, rewritten whole on every change). */
const legacySchema = z.lazySchema(() =>
  z.object({
    version: z.literal(1),
    legacyImported: z.optional(z.boolean()),
    projectImported: z.optional(z.string()),
    sessions: z.record(z.string(), buildEntrySchema()),
  }),
);

/** Waiting this long for another agent's lock is enough: the index is only a cache. */
const LOCK_WAIT_MS = 2_000;
/** Rewrite the log once it holds this many lines per session it describes (and some). */
const LINES_PER_SESSION = 4;
const SLACK_LINES = 64;

export class SessionIndex {
  constructor(
    private readonly dir: string,
    /** The user's state folder: the folders below it are created and checked before a write. */
    private readonly base: string,
  ) {}

  get file(): string {
    return path.join(this.dir, 'index.ndjson');
  }

  private get legacyFile(): string {
    return path.join(this.dir, 'index.json');
  }

  async read(): Promise<IndexState> {
    const { state } = await this.readWithCount();
    return state;
  }

  /** Appends `lines` (one write); rewrites the log when it has grown far past what it describes. */
  async append(lines: readonly IndexLine[]): Promise<void> {
    if (lines.length === 0) return;
    ensureSessionsDir(this.base, this.dir);
    const fresh = !(await this.exists());
    // The first line of a new log carries over an earlier version's index.json.
    const seed = fresh ? linesOf(await this.readLegacy()) : [];
    appendLines(this.file, [...seed, ...lines]);
    const { state, lines: count } = await this.readWithCount();
    if (count > LINES_PER_SESSION * Object.keys(state.sessions).length + SLACK_LINES) await this.rewrite();
  }

  /** The log rewritten as one line per fact it holds now (atomically, under the lock). */
  private async rewrite(): Promise<void> {
    await withFileLock(
      this.file,
      async () => {
        const { state } = await this.readWithCount();
        const text = linesOf(state)
          .map((line) => `${JSON.stringify(line)}\n`)
          .join('');
        await writeFileAtomic(this.file, text);
      },
      { waitMs: LOCK_WAIT_MS },
    ).catch(() => undefined);
  }

  private async exists(): Promise<boolean> {
    return (await readText(this.file)) !== undefined;
  }

  private async readWithCount(): Promise<{ state: IndexState; lines: number }> {
    const text = await readText(this.file);
    if (text === undefined) return { state: await this.readLegacy(), lines: 0 };
    const state: IndexState = { sessions: {} };
    let lines = 0;
    for (const raw of text.split('\n')) {
      if (raw.trim() === '') continue;
      lines += 1;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        continue;
      }
      const parsed = lineSchema().safeParse(value);
      if (parsed.success) applyLine(state, parsed.data);
    }
    return { state, lines };
  }

  private async readLegacy(): Promise<IndexState> {
    const text = await readText(this.legacyFile);
    if (text === undefined) return { sessions: {} };
    try {
      const parsed = legacySchema().safeParse(JSON.parse(text));
      if (!parsed.success) return { sessions: {} };
      const { legacyImported, projectImported, sessions } = parsed.data;
      return { legacyImported, projectImported, sessions };
    } catch {
      return { sessions: {} };
    }
  }
}

export function applyLine(state: IndexState, line: IndexLine): void {
  if ('session' in line) state.sessions[line.session] = line.entry;
  else if ('renamed' in line) {
    const entry = state.sessions[line.renamed.from];
    delete state.sessions[line.renamed.from];
    if (entry) state.sessions[line.renamed.to] = entry;
  } else if ('legacyImported' in line) state.legacyImported = true;
  else state.projectImported = line.projectImported;
}

/** The lines that say what `state` says. */
function linesOf(state: IndexState): IndexLine[] {
  const lines: IndexLine[] = [];
  if (state.legacyImported) lines.push({ legacyImported: true });
  if (state.projectImported !== undefined) lines.push({ projectImported: state.projectImported });
  for (const [session, entry] of Object.entries(state.sessions)) lines.push({ session, entry });
  return lines;
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    // A damaged or unreadable index is rebuilt from the files.
    return '';
  }
}

/** One write() with O_APPEND: lines of concurrent writers never interleave within a line. */
function appendLines(file: string, lines: readonly IndexLine[]): void {
  const fd = openSync(
    file,
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0),
    0o600,
  );
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`refusing to write ${file}: it is not a regular file`);
    writeSync(fd, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  } finally {
    closeSync(fd);
  }
}
