/**
 * The undo stack behind `/undo` and `/rewind`: what each confirmed write/patch replaced, kept in
 * the person's own state — `<userDir>/projects/<key>/undo.json` (oldest first, 0600, the key as
 * for sessions: config/project-state.ts) — so it survives a restart and a cloned repository can
 * plant none of it. Multi-step, bounded. Each entry names the turn (user message) it was written
 * in and a hash of what was written: a file is restored only while it still holds exactly that
 * (one changed since is reported and left alone), a protected path only after a question, and an
 * entry outside the root (links resolved) is ignored. Restores go through root-files.ts, never
 * through a link. The project's own `.geekagent/undo.json` (an earlier version's, or planted) is
 * never read: the first `/undo` of a run says so when one is there.
 */
import { createHash } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { PathSandbox, UndoRecorder } from '../tools/types.js';
import { errorMessage } from '../util/errors.js';
import { stateFilePath } from '../util/state-dir.js';
import { visible } from '../util/terminal-text.js';
import type { ProtectedPathGuard } from '../workspace/protected.js';
import { openInRoot, removeInRoot, writeInRoot } from '../workspace/root-files.js';
import { realpathOfExistingPrefix } from '../workspace/root-sandbox.js';
import { type UndoEntry, UndoFile } from './undo-file.js';

export { type UndoEntry, undoFilePath } from './undo-file.js';

/** What a rewind of files did; names as shown to the person. */
export interface UndoRewindReport {
  restored: string[];
  /** Files the agent created, removed again. */
  removed: string[];
  /** Files changed (or deleted) since the agent wrote them: reported, left as they are. */
  changed: string[];
  /** Protected paths the person chose to leave as they are. */
  protectedKept: string[];
  /** Restores that failed, with the reason. */
  failed: string[];
  /** Entries outside the root, ignored. */
  ignored: string[];
  /** The log is full and its oldest entry is one of these turns': older writes may be gone. */
  mayBeIncomplete: boolean;
}

/** The person's answer to restoring a protected file: restore it, drop the step and leave the file, or stop. */
export type ProtectedRestoreAnswer = 'restore' | 'skip' | 'cancel';

/**
 * Asks the person whether to restore (or, `removes`, delete) protected `shown`. Absent where
 * nobody can be asked (print mode): the restore is refused unless `--allow-protected` names it.
 */
export type ConfirmProtectedRestore = (shown: string, removes: boolean) => Promise<ProtectedRestoreAnswer>;

export interface UndoStackOptions {
  /** Restores stay inside its root. */
  sandbox: PathSandbox;
  /** Entries kept; older ones are dropped. Default 50. */
  limit?: number;
  /** How a path is shown in undo messages; default: the sandbox's (relative to root). */
  display?: (absolutePath: string) => string;
  /** Protected paths are restored only after a question (absent: none is protected). */
  protectedPaths?: ProtectedPathGuard;
  /** The user's state folder holding the file: the folders between are made 0700, never through a link. */
  stateBase?: string;
  /** The project folder: its `.geekagent/undo.json` is never read (the first undo says so). */
  projectDir?: string;
}

const DEFAULT_LIMIT = 50;

export const PROJECT_UNDO_NOTE =
  "not read: this folder's .geekagent/undo.json (undo history is kept in your own state folder; one in the project — an earlier version's, or a repository's — is never imported)";

export class UndoStack implements UndoRecorder {
  private readonly limit: number;
  private readonly display: (absolutePath: string) => string;
  private readonly sandbox: PathSandbox;
  private readonly protectedPaths: ProtectedPathGuard | undefined;
  /** The project's own `.geekagent/undo.json`, until the first undo has looked for it. */
  private projectFile: string | undefined;
  /** Every operation runs after the previous one: parallel records must not lose entries. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Set when the file was found unreadable; reported once, by the next undo. */
  private wasReset = false;
  /** Names the turn a change belongs to (the app's current user message); unset: none. */
  private turnOf: (() => string | undefined) | undefined;

  private readonly store: UndoFile;

  constructor(
    private readonly file: string,
    options: UndoStackOptions,
  ) {
    this.store = new UndoFile(file, options.stateBase);
    const limit = options.limit ?? DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`undo limit must be a positive integer, got ${limit}`);
    this.limit = limit;
    this.sandbox = options.sandbox;
    this.protectedPaths = options.protectedPaths;
    if (options.projectDir !== undefined) this.projectFile = stateFilePath(options.projectDir, 'undo.json');
    this.display = options.display ?? ((absolutePath) => this.sandbox.display(absolutePath));
  }

  /** From now on each entry names the turn `turn()` returns when it is recorded. */
  tagTurns(turn: () => string | undefined): void {
    this.turnOf = turn;
  }

  record(absolutePath: string, previous: string | null, next: string): Promise<void> {
    const turn = this.turnOf?.();
    return this.inTurn(async () => {
      const entries = await this.load();
      entries.push({
        path: path.resolve(absolutePath),
        previous,
        at: new Date().toISOString(),
        ...(turn !== undefined ? { turn } : {}),
        written: sha256(next),
      });
      await this.save(entries.slice(-this.limit));
    });
  }

  /**
   * Takes back the newest entry and says what it did: restored (or a created file removed) only
   * while the file still holds what the agent wrote — else the entry is dropped and the file left
   * as it is — and a protected path only when `confirm` says so (without it: refused, the entry kept).
   */
  undo(confirm?: ConfirmProtectedRestore): Promise<string> {
    return this.inTurn(async () => {
      const entries = await this.load();
      const notes = await this.projectFileNote();
      // A reset file is written back empty; otherwise only when entries left the log.
      const count = this.wasReset ? -1 : entries.length;
      if (this.wasReset) notes.push(`undo history in ${this.file} was unreadable and has been reset`);
      this.wasReset = false;
      // Entries that left the log (taken back, ignored, changed since) are gone for good.
      const finish = async (message: string) => {
        if (entries.length !== count) await this.save(entries);
        return [...notes, message].join('; ');
      };
      for (let entry = entries.pop(); entry; entry = entries.pop()) {
        const absolute = await this.insideRoot(entry.path);
        if (absolute === undefined) {
          notes.push(`ignored an undo entry outside the root: ${visible(entry.path)}`);
          continue;
        }
        const shown = visible(this.display(absolute));
        const now = await this.currentHash(absolute, shown);
        if (now === null && entry.previous === null)
          return finish(`nothing to delete: ${shown} (the agent created it) is gone already`);
        if (entry.written === undefined || now !== entry.written)
          return finish(`not restored ${shown}: ${whyChanged(now, entry)} (left as it is)`);
        const guarded = await this.guarded(absolute);
        if (guarded !== undefined) {
          if (!confirm) {
            entries.push(entry);
            return finish(
              `not restored ${shown}: protected path — pass --allow-protected ${guarded} to undo it`,
            );
          }
          const answer = await confirm(shown, entry.previous === null);
          if (answer === 'skip')
            return finish(`left ${shown} as it is; this change is gone from the undo history`);
          if (answer === 'cancel') {
            entries.push(entry);
            return finish(`undo cancelled: ${shown} left as it is`);
          }
        }
        let message: string;
        try {
          message = await this.restore(absolute, entry.previous);
        } catch (error) {
          // The entry stays, so the undo can be retried; ignored ones are gone for good.
          entries.push(entry);
          if (entries.length !== count) await this.save(entries).catch(() => undefined);
          throw error;
        }
        return finish(message);
      }
      return finish('nothing to undo');
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
   * deleted since is reported and left alone, with its older entries; so is a protected path
   * unless `confirm` answers restore. Restored entries leave the log; the others stay.
   */
  rewindTurns(
    selected: (turn: string) => boolean,
    confirm?: ConfirmProtectedRestore,
  ): Promise<UndoRewindReport> {
    return this.inTurn(async () => {
      const entries = await this.load();
      const report: UndoRewindReport = {
        restored: [],
        removed: [],
        changed: [],
        protectedKept: [],
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
        if (
          (await this.guarded(absolute)) !== undefined &&
          (await confirm?.(visible(shown), entry.previous === null)) !== 'restore'
        ) {
          leftAlone.add(absolute);
          report.protectedKept.push(shown);
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

  size(): Promise<number> {
    return this.inTurn(async () => (await this.load()).length);
  }

  /** The protected name (as `--allow-protected` takes it) when `absolute` or where it leads is one. */
  private async guarded(absolute: string): Promise<string | undefined> {
    if (!this.protectedPaths) return undefined;
    // A check that fails counts as protected: asking once too often beats a silent write.
    const real = await realpathOfExistingPrefix(absolute).catch(() => absolute);
    return this.protectedPaths.check([absolute, real])[0];
  }

  /** Once a run: a note when the project folder holds an undo.json of its own (never read). */
  private async projectFileNote(): Promise<string[]> {
    const file = this.projectFile;
    if (file === undefined) return [];
    this.projectFile = undefined;
    const there = await lstat(file).then(
      () => true,
      () => false,
    );
    return there ? [PROJECT_UNDO_NOTE] : [];
  }

  /** SHA-256 of the file's bytes; null when it is missing; a marker when it is not a plain file. */
  private async currentHash(absolute: string, shown: string): Promise<string | null> {
    // The agent records the file it wrote, never a link to it: a link there now is someone else's.
    if ((await lstat(absolute).catch(() => undefined))?.isSymbolicLink()) return 'link';
    try {
      const opened = await openInRoot(this.sandbox, absolute, { tool: 'undo', requested: shown });
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

  /** The entry's path when it is inside the root (after resolving links), else undefined. */
  private async insideRoot(entryPath: string): Promise<string | undefined> {
    try {
      return await this.sandbox.resolve(entryPath);
    } catch {
      return undefined;
    }
  }

  private async restore(absolute: string, previous: string | null): Promise<string> {
    const shown = visible(this.display(absolute));
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

  /** The entries on disk; an unreadable file counts as empty (reported by the next undo). */
  private async load(): Promise<UndoEntry[]> {
    const read = await this.store.load();
    if (read === 'reset') {
      this.wasReset = true;
      return [];
    }
    return read;
  }

  private save(entries: UndoEntry[]): Promise<void> {
    return this.store.save(entries);
  }

  private inTurn<T>(operation: () => Promise<T>): Promise<T> {
    const turn = this.queue.then(operation);
    this.queue = turn.catch(() => undefined);
    return turn;
  }
}

/** Why a file no longer holds what the agent wrote (`now`: its hash, null when missing). */
function whyChanged(now: string | null, entry: UndoEntry): string {
  if (entry.written === undefined) return 'no record of what the agent wrote';
  return now === null ? 'it was deleted since the agent wrote it' : 'it changed since the agent wrote it';
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
