/**
 * The undo stack behind `/undo`: what each confirmed write/patch replaced, persisted in
 * `.geekagent/undo.json` (oldest first) so it survives a restart. Multi-step, bounded. The file
 * is untrusted (a cloned repository can ship one): an entry outside the root (links resolved) is
 * ignored with a warning, and restores go through root-files.ts, never through a link.
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { PathSandbox, UndoRecorder } from '../tools/types.js';
import { ConfigError, parseJsonText, writeJsonFileAtomic } from '../util/json-file.js';
import * as z from '../util/schema.js';
import { readStateFile } from '../util/state-dir.js';
import { visible } from '../util/terminal-text.js';
import { removeInRoot, writeInRoot } from './root-files.js';
import { RootSandbox, realpathOfExistingPrefix } from './sandbox.js';

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
