/**
 * One memory file (`.geekagent/memory.json` for the project, `<userStateDir>/memory.json` for the
 * user): reading both shapes — the described system's array of strings and our
 * `{version: 1, entries: [...]}` — and read-modify-write under the file's lock, written
 * atomically and never through a symlink. A legacy string gets a stable id from its text.
 */
import { createHash, randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { withFileLock } from '../util/file-lock.js';
import { writeFileAtomic } from '../util/safe-write.js';
import { readStateFile } from '../util/state-dir.js';

export type MemoryScope = 'project' | 'user';

export interface MemoryEntry {
  id: string;
  content: string;
  /** ISO time it was first written. */
  created: string;
  /** ISO time a near-duplicate write last replaced its text. */
  updated?: string;
  scope: MemoryScope;
}

export class MemoryFileError extends Error {
  override readonly name = 'MemoryFileError';
}

export const MEMORY_FILE_VERSION = 1;

export function newMemoryId(): string {
  return `m${randomBytes(4).toString('hex')}`;
}

function legacyId(content: string): string {
  return `m${createHash('sha256').update(content).digest('hex').slice(0, 8)}`;
}

export class MemoryFile {
  constructor(
    readonly file: string,
    readonly scope: MemoryScope,
    /** Creates (and checks) the folder the file lives in before a write. */
    private readonly ensureFolder: () => Promise<void>,
  ) {}

  /** Modification time in ms (0 when missing): a cheap "did anything change" check. */
  async version(): Promise<number> {
    try {
      const info = await stat(this.file);
      return info.mtimeMs + info.size;
    } catch {
      return 0;
    }
  }

  async read(): Promise<MemoryEntry[]> {
    const raw = await readStateFile(this.file);
    if (raw === undefined || raw.trim() === '') return [];
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new MemoryFileError(
        `${this.file} is not valid JSON (${(error as Error).message}); fix or remove it`,
      );
    }
    const items = Array.isArray(value)
      ? value
      : value !== null && typeof value === 'object' && Array.isArray((value as { entries?: unknown }).entries)
        ? (value as { entries: unknown[] }).entries
        : undefined;
    if (items === undefined)
      throw new MemoryFileError(`${this.file}: expected an array of strings or {"entries": [...]}`);
    const entries: MemoryEntry[] = [];
    const seen = new Set<string>();
    for (const item of items) {
      const entry = this.toEntry(item);
      if (entry === undefined || seen.has(entry.id)) continue;
      seen.add(entry.id);
      entries.push(entry);
    }
    return entries;
  }

  /** Runs `change` on the current entries under the lock and writes what it returns. */
  async update<T>(change: (entries: MemoryEntry[]) => { entries: MemoryEntry[]; result: T }): Promise<T> {
    await this.ensureFolder();
    return withFileLock(this.file, async () => {
      const { entries, result } = change(await this.read());
      const stored = entries.map(({ scope: _scope, ...rest }) => rest);
      await writeFileAtomic(
        this.file,
        `${JSON.stringify({ version: MEMORY_FILE_VERSION, entries: stored }, null, 2)}\n`,
        { mode: 0o600 },
      );
      return result;
    });
  }

  private toEntry(item: unknown): MemoryEntry | undefined {
    if (typeof item === 'string') {
      return item.trim() === ''
        ? undefined
        : { id: legacyId(item), content: item, created: '', scope: this.scope };
    }
    if (item === null || typeof item !== 'object') return undefined;
    const record = item as Record<string, unknown>;
    if (typeof record.content !== 'string' || record.content.trim() === '') return undefined;
    return {
      id:
        typeof record.id === 'string' && /^[\w-]{1,40}$/.test(record.id)
          ? record.id
          : legacyId(record.content),
      content: record.content,
      created: typeof record.created === 'string' ? record.created : '',
      ...(typeof record.updated === 'string' ? { updated: record.updated } : {}),
      scope: this.scope,
    };
  }
}
