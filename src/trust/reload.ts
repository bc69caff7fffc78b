/**
 * Folder trust at a reload (`/commands reload`, `/skills reload`): the project commands and skills
 * read again are declarations as at start, so one that is new or changed since the person trusted
 * the folder does not load until they answer the same trust question for it. The face asks (the
 * TUI, on the session's screen); where nobody can be asked (print mode, stream-json, ACP) it stays
 * out, as at start. A folder trusted for the run whatever it declares (`--trust`, the user's own
 * state folder) loads what it finds, as a start would; an untrusted one loads none of it (its
 * discovery lists it untrusted) and is not reviewed here.
 */
import type { FolderTrust } from './decide.js';
import type { Declaration, TrustContributor } from './declarations.js';
import { type TrustChange, TrustStore } from './store.js';

/** The trust question for what is new or changed (`changes`) among `declarations.items`. */
export type TrustQuestion = Extract<FolderTrust, { state: 'untrusted' }>;

/** The face's trust question: true when the person trusts what it lists (never without an answer). */
export type AskTrust = (question: TrustQuestion, signal: AbortSignal) => Promise<boolean>;

/** What a reload loads or leaves out as a whole (a command file, a skill folder), by `id`. */
export interface ReloadUnit {
  id: string;
  items: readonly Declaration[];
}

export interface ReloadTrustOptions {
  /** The run's trust, as decided at start. */
  trust: FolderTrust;
  /** The real environment: `GEEKAGENT_HOME` locates the record. */
  env: NodeJS.ProcessEnv;
  homeDir?: string;
  /** Absent: nobody to ask (what is new stays out). */
  ask?: AskTrust;
  /** The features that word a changed item as it was (boot/trust-contributors.ts). */
  contributors: readonly TrustContributor[];
}

export class ReloadTrust {
  constructor(private readonly options: ReloadTrustOptions) {}

  /** Whether this face asks (else what is new stays out until a start asks). */
  get asks(): boolean {
    return this.options.ask !== undefined;
  }

  /**
   * The ids of `units` (read now, in a folder this run trusts) that must not load: new or changed
   * since the person trusted the folder, and not trusted when asked now. A yes is recorded, as the
   * start's question records its answer, so the next start does not ask again.
   */
  async held(units: readonly ReloadUnit[], signal: AbortSignal): Promise<Set<string>> {
    const { trust, env, homeDir, ask, contributors } = this.options;
    if (trust.state !== 'trusted' || trust.via === 'flag' || trust.via === 'own') return new Set();
    const items = units.flatMap((unit) => unit.items);
    const { projectDir, folder } = trust.declarations;
    const check = await TrustStore.forUser(env, homeDir, contributors).check({ projectDir, folder, items });
    const changes: TrustChange[] =
      check.state === 'trusted'
        ? []
        : check.state === 'never'
          ? items.map((item) => ({ change: 'new', item }))
          : check.changes;
    if (changes.length === 0) return new Set();
    const changed = new Set(changes.map((change) => change.item.key));
    const held = new Set(
      units.filter((unit) => unit.items.some((item) => changed.has(item.key))).map((unit) => unit.id),
    );
    if (!ask || signal.aborted) return held;
    const question: TrustQuestion = {
      state: 'untrusted',
      declarations: { projectDir, folder, items },
      changes,
    };
    if (!(await ask(question, signal)) || signal.aborted) return held;
    await trust.remember?.(changes.map((change) => change.item));
    return new Set();
  }
}

/** The notice for what a reload left out (untrusted text: the caller prints it through visibleLine). */
export function heldNotice(count: number, noun: string, asked: boolean): string {
  const what = `${count} project ${noun}${count === 1 ? '' : 's'}`;
  const how = asked ? 'reload again to be asked' : 'run "geekagent trust" or restart GeekAgent to be asked';
  return `${what} not loaded: new or changed since you trusted this folder (${how})`;
}
