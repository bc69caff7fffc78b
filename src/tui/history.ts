/**
 * Input history kept across runs in the person's own state, `<userDir>/projects/<key>/history`
 * (nothing in the project folder): one JSON string per line (so multi-line entries survive),
 * newest last, capped. Also owns ↑/↓ navigation over it. The file is a state file: read only when
 * regular, written atomically (0600) and never through a link (a planted link is refused and
 * reported once, not followed). An earlier version's `<project>/.geekagent/history` is imported
 * once, only in a trusted folder (`importLegacy`); in any other it is not read, and a notice says so.
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { userProjectDir } from '../config/project-state.js';
import { errorMessage } from '../util/errors.js';
import { writeFileAtomic } from '../util/safe-write.js';
import { ensureUserStateFolder, readStateFile, STATE_DIR_NAME } from '../util/state-dir.js';

export const HISTORY_LIMIT = 500;

export class InputHistory {
  private entries: string[] = [];
  /** Position while browsing: entries.length means "the line being typed". */
  private index = 0;
  private draft = '';
  private writing: Promise<void> = Promise.resolve();
  /** Problems with the file, said once each kind; kept until someone listens. */
  private warnings: string[] = [];
  private listener: ((message: string) => void) | undefined;
  private saveFailed = false;
  /** The file was there when loaded: an earlier version's project file is not imported again. */
  private found = false;

  constructor(
    private readonly file: string | undefined,
    private readonly places: {
      /** The user's state folder holding `file` (its folders made 0700, never through a link). */
      stateBase?: string;
      /** An earlier version's `<project>/.geekagent/history`. */
      legacy?: string;
    } = {},
  ) {}

  static forProject(projectDir: string, userDir: string): InputHistory {
    return new InputHistory(path.join(userProjectDir(userDir, projectDir), 'history'), {
      stateBase: userDir,
      legacy: path.join(projectDir, STATE_DIR_NAME, 'history'),
    });
  }

  /** Receives the warnings so far and later ones (a refused link, a failed save). */
  listen(listener: (message: string) => void): void {
    this.listener = listener;
    for (const message of this.warnings.splice(0)) listener(message);
  }

  /** Reads the file; a missing or unreadable file is an empty history (with a warning), never an error. */
  async load(): Promise<void> {
    if (!this.file) return;
    const text = await readStateFile(this.file).then(
      (read) => {
        this.found = read !== undefined;
        return read ?? '';
      },
      (error: unknown) => {
        this.found = true;
        this.warn(`input history not loaded: ${errorMessage(error)}`);
        return '';
      },
    );
    this.entries = text.split('\n').flatMap(parseLine).slice(-HISTORY_LIMIT);
    this.index = this.entries.length;
  }

  /**
   * An earlier version's `.geekagent/history` in the project: once the folder's trust is known,
   * imported into the person's own file when trusted (the person's own lines, then not read again),
   * only mentioned when not (a repository's planted lines never reach ↑).
   */
  async importLegacy(trusted: boolean): Promise<void> {
    const legacy = this.places.legacy;
    if (!this.file || !legacy || this.found) return;
    const shown = path.join(STATE_DIR_NAME, 'history');
    if (!trusted) {
      // Not read, not even checked for what it is: only that something is there.
      if (
        await lstat(legacy).then(
          () => true,
          () => false,
        )
      )
        this.warn(
          `not read: this folder's ${shown} (input history is kept in your own state folder; an earlier version's is imported once you trust the folder: /trust)`,
        );
      return;
    }
    let text: string | undefined;
    try {
      text = await readStateFile(legacy);
    } catch (error) {
      this.warn(`input history not imported: ${errorMessage(error)}`);
      return;
    }
    if (text === undefined) return;
    const imported = text.split('\n').flatMap(parseLine);
    this.entries = [...imported, ...this.entries].slice(-HISTORY_LIMIT);
    this.index = this.entries.length;
    this.found = true;
    await this.add('').catch(() => undefined);
    this.warn(
      `imported ${imported.length} input history lines from ${shown} into ${this.file}; the project's file is no longer used (you may delete it)`,
    );
  }

  get all(): readonly string[] {
    return this.entries;
  }

  /** Records a submitted line and saves; returns the pending write so callers may await it. */
  add(entry: string): Promise<void> {
    if (entry.trim() !== '' && this.entries[this.entries.length - 1] !== entry) {
      this.entries.push(entry);
      if (this.entries.length > HISTORY_LIMIT) this.entries.splice(0, this.entries.length - HISTORY_LIMIT);
    }
    this.index = this.entries.length;
    this.draft = '';
    // Writes run one after another so an older snapshot never lands after a newer one.
    this.writing = this.writing
      .then(() => this.save())
      .catch((error: unknown) => {
        if (this.saveFailed) return;
        this.saveFailed = true;
        this.warn(`input history not saved: ${errorMessage(error)}`);
      });
    return this.writing;
  }

  /** Resolves once every save started so far has finished (before the process exits). */
  flush(): Promise<void> {
    return this.writing;
  }

  /** ↑: the previous entry, or undefined at the oldest. `current` is kept as the draft. */
  previous(current: string): string | undefined {
    if (this.index === 0) return undefined;
    if (this.index === this.entries.length) this.draft = current;
    this.index -= 1;
    return this.entries[this.index];
  }

  /** ↓: the next entry, the draft once past the newest, or undefined when already there. */
  next(): string | undefined {
    if (this.index >= this.entries.length) return undefined;
    this.index += 1;
    return this.index === this.entries.length ? this.draft : this.entries[this.index];
  }

  private async save(): Promise<void> {
    if (!this.file) return;
    const { stateBase } = this.places;
    if (stateBase !== undefined) ensureUserStateFolder(stateBase, path.dirname(this.file), 'input history');
    await writeFileAtomic(this.file, this.entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''), {
      // Typed lines may hold secrets: the person's only.
      mode: 0o600,
      ...(stateBase !== undefined ? { noMkdir: true } : {}),
    });
  }

  private warn(message: string): void {
    if (this.listener) this.listener(message);
    else this.warnings.push(message);
  }
}

function parseLine(line: string): string[] {
  if (line.trim() === '') return [];
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'string' ? [value] : [];
  } catch {
    // A line written by hand (not JSON) is still a usable entry.
    return [line];
  }
}
