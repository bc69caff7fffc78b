/**
 * Which skills are active: session state (`conversation.setState('skills', names)`), so the set is
 * saved as a `state` line of the session file, restored by `--continue`, `--resume` and `/open`,
 * dropped by `/new` and `/reset`, and never part of the history (compaction cannot summarise it
 * away). Earlier versions kept it in `.geekagent/skills-active.json` (`{ <session id>: [names] }`):
 * that file is only read, when a session without the state is opened, and never written.
 */
import { readFile } from 'node:fs/promises';
import type { Conversation } from '../agent/conversation.js';
import { stateFilePath } from '../util/state-dir.js';

export const ACTIVE_STATE_KEY = 'skills';
const LEGACY_FILE = 'skills-active.json';

export class ActiveSkills {
  private legacy: Record<string, string[]> = {};

  constructor(
    private readonly conversation: Conversation,
    private readonly projectDir: string,
  ) {}

  /** Reads the old side file (missing or broken: nothing to carry over). */
  async loadLegacy(): Promise<void> {
    try {
      const value: unknown = JSON.parse(await readFile(stateFilePath(this.projectDir, LEGACY_FILE), 'utf8'));
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
      for (const [id, names] of Object.entries(value)) {
        if (Array.isArray(names)) this.legacy[id] = names.filter((n): n is string => typeof n === 'string');
      }
    } catch {
      // Missing or unreadable: no session has skills to carry over.
    }
  }

  /** A session opened without the state takes its skills from the old file, once (saved as state). */
  adoptLegacy(session: string): void {
    if (this.conversation.state(ACTIVE_STATE_KEY) !== undefined) return;
    const names = this.legacy[session];
    delete this.legacy[session];
    if (names && names.length > 0) this.set(names);
  }

  get(): string[] {
    const value = this.conversation.state(ACTIVE_STATE_KEY);
    return Array.isArray(value) ? value.filter((n): n is string => typeof n === 'string') : [];
  }

  set(names: readonly string[]): void {
    this.conversation.setState(ACTIVE_STATE_KEY, [...new Set(names)]);
  }
}
