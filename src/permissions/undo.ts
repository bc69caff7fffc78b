/**
 * The undo stack behind `/undo`: what each confirmed write/patch replaced, persisted in
 * `.geekagent/undo.json` (oldest first) so it survives a restart. Multi-step, bounded.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { UndoRecorder } from '../tools/types.js';
import { readJsonFile, writeJsonFileAtomic } from '../util/json-file.js';

export interface UndoEntry {
  /** Absolute path of the changed file. */
  path: string;
  /** Its content before the change; null: the file did not exist. */
  previous: string | null;
  /** ISO time of the change. */
  at: string;
}

export interface UndoStackOptions {
  /** Entries kept; older ones are dropped. Default 50. */
  limit?: number;
  /** How a path is shown in undo messages (e.g. relative to root). */
  display?: (absolutePath: string) => string;
}

const undoFileSchema = z.object({
  entries: z.array(
    z.object({
      path: z.string().refine((value) => path.isAbsolute(value), 'expected an absolute path'),
      previous: z.string().nullable(),
      at: z.string(),
    }),
  ),
});

const DEFAULT_LIMIT = 50;

export class UndoStack implements UndoRecorder {
  private readonly limit: number;
  private readonly display: (absolutePath: string) => string;
  /** Every operation runs after the previous one: parallel records must not lose entries. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Set when the file was found unreadable; reported once, by the next undo. */
  private wasReset = false;

  constructor(
    private readonly file: string,
    options: UndoStackOptions = {},
  ) {
    const limit = options.limit ?? DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`undo limit must be a positive integer, got ${limit}`);
    this.limit = limit;
    this.display = options.display ?? ((absolutePath) => absolutePath);
  }

  record(absolutePath: string, previous: string | null): Promise<void> {
    return this.inTurn(async () => {
      const entries = await this.load();
      entries.push({ path: path.resolve(absolutePath), previous, at: new Date().toISOString() });
      await this.save(entries.slice(-this.limit));
    });
  }

  /** Restores the newest entry and says what it did. */
  undo(): Promise<string> {
    return this.inTurn(async () => {
      const entries = await this.load();
      const notice = this.wasReset
        ? `undo history in ${this.file} was unreadable and has been reset`
        : undefined;
      this.wasReset = false;
      const entry = entries.pop();
      if (!entry) {
        if (notice) await this.save(entries);
        return notice ? `${notice}; nothing to undo` : 'nothing to undo';
      }
      // Restore first: if that fails the entry stays, so the undo can be retried.
      const message = await this.restore(entry);
      await this.save(entries);
      return notice ? `${notice}; ${message}` : message;
    });
  }

  size(): Promise<number> {
    return this.inTurn(async () => (await this.load()).length);
  }

  private async restore(entry: UndoEntry): Promise<string> {
    const shown = this.display(entry.path);
    if (entry.previous === null) {
      await rm(entry.path, { force: true });
      return `deleted ${shown} (it did not exist before)`;
    }
    await mkdir(path.dirname(entry.path), { recursive: true });
    await writeFile(entry.path, entry.previous, 'utf8');
    return `restored ${shown}`;
  }

  /** The entries on disk; an unreadable file counts as empty (and is reported), never as a crash. */
  private async load(): Promise<UndoEntry[]> {
    let read: Awaited<ReturnType<typeof readJsonFile>>;
    try {
      read = await readJsonFile(this.file);
    } catch {
      this.wasReset = true;
      return [];
    }
    if (read.kind === 'missing') return [];
    const parsed = undoFileSchema.safeParse(read.value);
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
