/**
 * Input history kept across runs in `<project>/.geekagent/history`: one JSON string per line (so
 * multi-line entries survive), newest last, capped. Also owns ↑/↓ navigation over it. The file is
 * a state file: read only when regular, written atomically and never through a link (a planted
 * `history → ~/.bashrc` is refused and reported once, not followed).
 */
import path from 'node:path';
import { errorMessage } from '../util/errors.js';
import { writeFileAtomic } from '../util/safe-write.js';
import { readStateFile, STATE_DIR_NAME } from '../util/state-dir.js';

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

  constructor(private readonly file: string | undefined) {}

  static forProject(projectDir: string): InputHistory {
    return new InputHistory(path.join(projectDir, STATE_DIR_NAME, 'history'));
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
      (read) => read ?? '',
      (error: unknown) => {
        this.warn(`input history not loaded: ${errorMessage(error)}`);
        return '';
      },
    );
    this.entries = text.split('\n').flatMap(parseLine).slice(-HISTORY_LIMIT);
    this.index = this.entries.length;
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
    await writeFileAtomic(this.file, this.entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
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
