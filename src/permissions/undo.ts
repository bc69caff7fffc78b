/**
 * The undo stack behind `/undo` and `/rewind`: what each confirmed write/patch replaced, persisted
 * in `.geekagent/undo.json` (oldest first) so it survives a restart. Multi-step, bounded. Each
 * entry names the turn (user message) it was written in and a hash of what was written, so a
 * rewind takes back whole turns and leaves a file someone else changed since alone. The file
 * is untrusted (a cloned repository can ship one): an entry outside the root (links resolved) is
 * ignored with a warning, and restores go through root-files.ts, never through a link.
 */
import { createHash } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { PathSandbox, UndoRecorder } from '../tools/types.js';
import { errorMessage } from '../util/errors.js';
import { ConfigError, parseJsonText, writeJsonFileAtomic } from '../util/json-file.js';
import * as z from '../util/schema.js';
import { readStateFile } from '../util/state-dir.js';
import { visible } from '../util/terminal-text.js';
import { openInRoot, removeInRoot, writeInRoot } from '../workspace/root-files.js';
import { RootSandbox, realpathOfExistingPrefix } from '../workspace/root-sandbox.js';

export interface UndoEntry {
  /** Absolute path of the changed file. */
  path: string;
  /** Its content before the change; null: the file did not exist. */
  previous: string | null;
  /** ISO time of the change. */
  at: string;
  /** The id of the user message whose turn made the change (absent: no turn, e.g. `mcp serve`). */
  turn?: string;
  /** SHA-256 (hex) of what was written: a rewind restores only a file that still holds it. */
  written?: string;
}

/** What a rewind of files did; names as shown to the person. */
export interface UndoRewindReport {
  restored: string[];
  /** Files the agent created, removed again. */
  removed: string[];
  /** Files changed (or deleted) since the agent wrote them: reported, left as they are. */
  changed: string[];
  /** Restores that failed, with the reason. */
  failed: string[];
  /** Entries outside the root, ignored (a planted undo.json). */
  ignored: string[];
  /** The log is full and its oldest entry is one of these turns': older writes may be gone. */
  mayBeIncomplete: boolean;
}

export interface UndoStackOptions {
  /** Entries kept; older ones are dropped. Default 50. */
  limit?: number;
  /** How a path is shown in undo messages; default: the sandbox's (relative to root) if given, else absolute. */
  display?: (absolutePath: string) => string;
  /** Restores stay inside its root; default: the folder holding `.geekagent`. */
  sandbox?: PathSandbox;
}

/** Built when an undo file is first read (zod builds every check up front; most runs never read it). */
function buildUndoFileSchema() {
  return z.object({
    entries: z.array(
      z.object({
        path: z.string().check(z.refine((value) => path.isAbsolute(value), 'expected an absolute path')),
        previous: z.nullable(z.string()),
        at: z.string(),
        turn: z.optional(z.string()),
        written: z.optional(z.string()),
      }),
    ),
  });
}

let builtSchema: ReturnType<typeof buildUndoFileSchema> | undefined;

function undoFileSchema(): ReturnType<typeof buildUndoFileSchema> {
  builtSchema ??= buildUndoFileSchema();
  return builtSchema;
}

const DEFAULT_LIMIT = 50;

export class UndoStack implements UndoRecorder {
  private readonly limit: number;
  private readonly display: (absolutePath: string) => string;
  private readonly sandbox: PathSandbox;
  /** Every operation runs after the previous one: parallel records must not lose entries. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Set when the file was found unreadable; reported once, by the next undo. */
  private wasReset = false;
  /** Names the turn a change belongs to (the app's current user message); unset: none. */
  private turnOf: (() => string | undefined) | undefined;

  constructor(
    private readonly file: string,
    options: UndoStackOptions = {},
  ) {
    const limit = options.limit ?? DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`undo limit must be a positive integer, got ${limit}`);
    this.limit = limit;
    this.sandbox = options.sandbox ?? new RootSandbox(path.dirname(path.dirname(path.resolve(file))));
    const sandbox = options.sandbox;
    this.display =
      options.display ??
      (sandbox ? (absolutePath) => sandbox.display(absolutePath) : (absolutePath) => absolutePath);
  }

  /** From now on each entry names the turn `turn()` returns when it is recorded. */
  tagTurns(turn: () => string | undefined): void {
    this.turnOf = turn;
  }

  record(absolutePath: string, previous: string | null, next?: string): Promise<void> {
    const turn = this.turnOf?.();
    return this.inTurn(async () => {
      const entries = await this.load();
      entries.push({
        path: path.resolve(absolutePath),
        previous,
        at: new Date().toISOString(),
        ...(turn !== undefined ? { turn } : {}),
        ...(next !== undefined ? { written: sha256(next) } : {}),
      });
      await this.save(entries.slice(-this.limit));
    });
  }

  /** Restores the newest entry and says what it did. */
  undo(): Promise<string> {
    return this.inTurn(async () => {
      const entries = await this.load();
      const notes = this.wasReset ? [`undo history in ${this.file} was unreadable and has been reset`] : [];
      this.wasReset = false;
      let ignored = 0;
      for (let entry = entries.pop(); entry; entry = entries.pop()) {
        const absolute = await this.insideRoot(entry.path);
        if (absolute === undefined) {
          ignored++;
          notes.push(`ignored an undo entry outside the root: ${visible(entry.path)}`);
          continue;
        }
        let message: string;
        try {
          message = await this.restore(absolute, entry.previous);
        } catch (error) {
          // The entry stays, so the undo can be retried; ignored ones are gone for good.
          entries.push(entry);
          if (ignored > 0) await this.save(entries).catch(() => undefined);
          throw error;
        }
        await this.save(entries);
        return [...notes, message].join('; ');
      }
      if (notes.length > 0) await this.save(entries);
      return [...notes, 'nothing to undo'].join('; ');
    });
  }

  /** The files (as shown) each turn changed, of the entries still in the log. */
  turnFiles(): Promise<Map<string, string[]>> {
    return this.inTurn(async () => {
      const files = new Map<string, string[]>();
      for (const entry of await this.load()) {
        if (entry.turn === undefined) continue;
        const list = files.get(entry.turn) ?? [];
        const shown = this.display(entry.path);
        if (!list.includes(shown)) list.push(shown);
        files.set(entry.turn, list);
      }
      return files;
    });
  }

  /**
   * Takes back every change of the turns `selected` names, newest first: a file is restored (or a
   * created one removed) only while it still holds exactly what the agent wrote; one changed or
   * deleted since is reported and left alone, with its older entries. Restored entries leave the
   * log; the others stay.
   */
  rewindTurns(selected: (turn: string) => boolean): Promise<UndoRewindReport> {
    return this.inTurn(async () => {
      const entries = await this.load();
      const report: UndoRewindReport = {
        restored: [],
        removed: [],
        changed: [],
        failed: [],
        ignored: [],
        mayBeIncomplete: false,
      };
      const chosen = (entry: UndoEntry) => entry.turn !== undefined && selected(entry.turn);
      report.mayBeIncomplete = entries.length >= this.limit && entries[0] !== undefined && chosen(entries[0]);
      const drop = new Set<UndoEntry>();
      const leftAlone = new Set<string>();
      for (let i = entries.length - 1; i >= 0; i--) {
        const entry = entries[i]!;
        if (!chosen(entry)) continue;
        const absolute = await this.insideRoot(entry.path);
        if (absolute === undefined) {
          report.ignored.push(visible(entry.path));
          drop.add(entry);
          continue;
        }
        if (leftAlone.has(absolute)) continue;
        const shown = this.display(absolute);
        const now = await this.currentHash(absolute, shown);
        if (now === null && entry.previous === null) {
          // Created by the agent and already gone: nothing to take back.
          drop.add(entry);
          continue;
        }
        if (entry.written === undefined || now !== entry.written) {
          leftAlone.add(absolute);
          report.changed.push(
            now === null
              ? `${shown} (deleted since the agent wrote it)`
              : entry.written === undefined
                ? `${shown} (no record of what the agent wrote)`
                : shown,
          );
          continue;
        }
        try {
          await this.restore(absolute, entry.previous);
        } catch (error) {
          leftAlone.add(absolute);
          report.failed.push(`${shown}: ${errorMessage(error)}`);
          continue;
        }
        drop.add(entry);
        const list = entry.previous === null ? report.removed : report.restored;
        if (!list.includes(shown)) list.push(shown);
      }
      // A file restored and later removed (it was created in these turns) counts as removed.
      report.restored = report.restored.filter((shown) => !report.removed.includes(shown));
      if (drop.size > 0) await this.save(entries.filter((entry) => !drop.has(entry)));
      return report;
    });
  }

  /** SHA-256 of the file's bytes; null when it is missing; a marker when it is not a plain file. */
  private async currentHash(absolute: string, shown: string): Promise<string | null> {
    try {
      const opened = await openInRoot(this.sandbox, absolute, { tool: 'rewind', requested: shown });
      if (opened.kind === 'missing') return null;
      if (opened.kind === 'directory') return 'directory';
      try {
        return createHash('sha256')
          .update(await opened.handle.readFile())
          .digest('hex');
      } finally {
        await opened.handle.close();
      }
    } catch {
      // A link, a special file, a hard-linked one: not what the agent wrote.
      return 'unreadable';
    }
  }

  size(): Promise<number> {
    return this.inTurn(async () => (await this.load()).length);
  }

  /** The entry's path when it is inside the root (after resolving links), else undefined. */
  private async insideRoot(entryPath: string): Promise<string | undefined> {
    try {
      return await this.sandbox.resolve(entryPath);
    } catch {
      return undefined;
    }
  }

  private async restore(absolute: string, previous: string | null): Promise<string> {
    const shown = this.display(absolute);
    const label = { tool: 'undo', requested: shown };
    if (previous === null) {
      await removeInRoot(this.sandbox, absolute, label);
      return `deleted ${shown} (it did not exist before)`;
    }
    const existing = await lstat(absolute).catch(() => undefined);
    if (existing?.isSymbolicLink()) throw new Error(`refusing to restore ${shown}: it is a symbolic link`);
    // The folders are resolved, the name itself is not: a link appearing there is refused.
    const folder = await realpathOfExistingPrefix(path.dirname(absolute));
    await writeInRoot(this.sandbox, path.join(folder, path.basename(absolute)), previous, label);
    return `restored ${shown}`;
  }

  /**
   * The entries on disk; an unreadable file counts as empty (and is reported), never as a crash.
   * A symlinked or special undo.json is refused (UnsafePathError), not reset.
   */
  private async load(): Promise<UndoEntry[]> {
    const text = await readStateFile(this.file);
    if (text === undefined) return [];
    let value: unknown;
    try {
      value = await parseJsonText(text, this.file);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      this.wasReset = true;
      return [];
    }
    const parsed = undoFileSchema().safeParse(value);
    if (!parsed.success) {
      this.wasReset = true;
      return [];
    }
    return parsed.data.entries;
  }

  private save(entries: UndoEntry[]): Promise<void> {
    return writeJsonFileAtomic(this.file, { entries });
  }

  private inTurn<T>(operation: () => Promise<T>): Promise<T> {
    const turn = this.queue.then(operation);
    this.queue = turn.catch(() => undefined);
    return turn;
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
