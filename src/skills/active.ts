/**
 * Which skills are active in which session: `.geekagent/skills-active.json` (`{ <session id>:
 * [names] }`), written atomically as the set changes, so `--continue` and `/open` bring a session's
 * skills back. Read once at start; a broken file counts as empty (it is only a convenience).
 */
import { readFile } from 'node:fs/promises';
import { writeJsonFileAtomic } from '../util/json-file.js';
import { ensureStateDir, stateFilePath } from '../util/state-dir.js';

export class ActiveSkills {
  private bySession: Record<string, string[]> = {};
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly projectDir: string) {}

  async load(): Promise<void> {
    try {
      const value: unknown = JSON.parse(await readFile(this.file(), 'utf8'));
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
      for (const [id, names] of Object.entries(value)) {
        if (Array.isArray(names))
          this.bySession[id] = names.filter((n): n is string => typeof n === 'string');
      }
    } catch {
      // Missing or unreadable: no session has active skills.
    }
  }

  get(session: string): string[] {
    return this.bySession[session] ?? [];
  }

  /** Sets a session's active skills and saves them (one write at a time, the latest wins). */
  set(session: string, names: string[]): Promise<void> {
    if (names.length === 0) delete this.bySession[session];
    else this.bySession[session] = [...names];
    const snapshot = { ...this.bySession };
    this.writing = this.writing
      .catch(() => undefined)
      .then(async () => {
        await ensureStateDir(this.projectDir);
        await writeJsonFileAtomic(this.file(), snapshot);
      });
    return this.writing;
  }

  private file(): string {
    return stateFilePath(this.projectDir, 'skills-active.json');
  }
}
