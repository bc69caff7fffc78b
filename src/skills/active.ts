/**
 * Which skills are active: session state (`conversation.setState('skills', names)`), so the set is
 * saved as a `state` line of the session file, restored by `--continue`, `--resume` and `/open`,
 * dropped by `/new` and `/reset`, and never part of the history (compaction cannot summarise it
 * away). Earlier versions kept it in `.geekagent/skills-active.json` (`{ <session id>: [names] }`):
 * that file is only read, when a session without the state is opened, and never written.
 * Which of them the model loaded itself (`use_skill`) is session state too (`skills-model`): such a
 * skill never widens a whitelist the person chose, in this turn or a continued session.
 */
import { readFile } from 'node:fs/promises';
import type { Conversation } from '../agent/conversation.js';
import { stateFilePath } from '../util/state-dir.js';

export const ACTIVE_STATE_KEY = 'skills';
export const MODEL_STATE_KEY = 'skills-model';
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
    return this.names(ACTIVE_STATE_KEY);
  }

  /** The active skills the model loaded (never the ones the person activated). */
  byModel(): string[] {
    const active = new Set(this.get());
    return this.names(MODEL_STATE_KEY).filter((name) => active.has(name));
  }

  /** The active set is `names`; those the model loaded stay the model's. */
  set(names: readonly string[]): void {
    const kept = new Set(names);
    this.conversation.setState(ACTIVE_STATE_KEY, [...kept]);
    this.setModel(this.names(MODEL_STATE_KEY).filter((name) => kept.has(name)));
  }

  /** The person activated `names` (/use replaces with `replace`; --skill and `$name` add): theirs now. */
  setByPerson(names: readonly string[], replace: boolean): void {
    const chosen = new Set(names);
    this.set(replace ? [...chosen] : [...this.get(), ...chosen]);
    this.setModel(this.byModel().filter((name) => !chosen.has(name)));
  }

  /** The model loaded `name` (use_skill): the model's unless it is already active. */
  addByModel(name: string): void {
    const current = this.get();
    if (current.includes(name)) return;
    this.set([...current, name]);
    this.setModel([...this.byModel(), name]);
  }

  private setModel(names: readonly string[]): void {
    const next = [...new Set(names)];
    const now = this.names(MODEL_STATE_KEY);
    // Only a change is a state line in the session file.
    if (next.length === now.length && next.every((name, i) => name === now[i])) return;
    this.conversation.setState(MODEL_STATE_KEY, next);
  }

  private names(key: string): string[] {
    const value = this.conversation.state(key);
    return Array.isArray(value) ? value.filter((n): n is string => typeof n === 'string') : [];
  }
}
