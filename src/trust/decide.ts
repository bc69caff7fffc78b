/**
 * Whether this run may use what the project folder declares: trusted (by the record, `--trust`,
 * the person's answer, or because it declares nothing) or untrusted (never trusted, or changed
 * since). The faces decide what to do with an untrusted folder: the TUI asks, print mode and the
 * `mcp` commands run without the declarations and say so.
 */
import path from 'node:path';
import { userStateDir } from '../config/paths.js';
import type { SettingsFiles } from '../settings/files.js';
import {
  type Declaration,
  type FolderDeclarations,
  readDeclarations,
  realPath,
  type TrustContributor,
} from './declarations.js';
import { type TrustChange, TrustStore } from './store.js';

/**
 * How a folder came to be trusted: `record` (trusted.json), `flag` (`--trust`, this run only),
 * `answer` (the person said yes just now), `empty` (it declares nothing), `own` (the project's
 * `.geekagent` is the user-state folder itself).
 */
/**
 * How a trusted folder came to be trusted. `empty`: it declares nothing; `unconfirmed`: its record
 * holds only what this agent wrote there or the person allowed "always" in a folder that declared
 * nothing — neither is the person's yes to the folder.
 */
export type TrustedVia = 'record' | 'unconfirmed' | 'flag' | 'answer' | 'empty' | 'own';

export type FolderTrust = (
  | {
      state: 'trusted';
      via: TrustedVia;
      declarations: FolderDeclarations;
      /** Keeps a declaration the person made during the run (an "always" answer) trusted. */
      remember?: (items: readonly Declaration[]) => Promise<void>;
    }
  | {
      state: 'untrusted';
      declarations: FolderDeclarations;
      /** What is new or changed since the folder was trusted; undefined when it never was. */
      changes?: TrustChange[];
    }
) & {
  /**
   * The settings reads the decision was made on (when the decider was given them): the run reads
   * through them (boot/bootstrap.ts `openFolder`), so each file is read once and what runs is
   * what was decided on.
   */
  files?: SettingsFiles;
};

export interface TrustOptions {
  projectDir: string;
  /** The real environment (never a project `.env`): `GEEKAGENT_HOME` locates the record. */
  env: NodeJS.ProcessEnv;
  homeDir?: string;
  /** `--trust`: trusted for this run, nothing recorded. */
  flag?: boolean;
  /**
   * The features whose declarations the folder is read for (boot/trust-contributors.ts). Required:
   * a list left out would read a folder as declaring nothing, and so trusted.
   */
  contributors: readonly TrustContributor[];
  /** The run's settings reads: the contributors read the settings files through them. */
  files?: SettingsFiles;
}

export async function decideTrust(options: TrustOptions): Promise<FolderTrust> {
  const trust = await decideFromDeclarations(options);
  return options.files ? { ...trust, files: options.files } : trust;
}

async function decideFromDeclarations(options: TrustOptions): Promise<FolderTrust> {
  const declarations = await readDeclarations(options.projectDir, options.contributors, options.files);
  const store = TrustStore.forUser(options.env, options.homeDir, options.contributors);
  const remember = (items: readonly Declaration[]) => store.approve(declarations.folder, items);
  if (isUserStateFolder(declarations.projectDir, options))
    return { state: 'trusted', via: 'own', declarations };
  if (options.flag) return { state: 'trusted', via: 'flag', declarations };
  const check = await store.check(declarations);
  if (check.state === 'trusted')
    return { state: 'trusted', via: check.confirmed ? 'record' : 'unconfirmed', declarations, remember };
  if (declarations.items.length === 0) return { state: 'trusted', via: 'empty', declarations, remember };
  return {
    state: 'untrusted',
    declarations,
    ...(check.state === 'changed' ? { changes: check.changes } : {}),
  };
}

/** Records the person's yes; the folder is trusted from now on (until what it declares changes). */
export async function trustFolder(
  declarations: FolderDeclarations,
  options: Pick<TrustOptions, 'env' | 'homeDir' | 'files'>,
): Promise<FolderTrust> {
  const store = TrustStore.forUser(options.env, options.homeDir);
  await store.trust(declarations);
  return {
    state: 'trusted',
    via: 'answer',
    declarations,
    remember: (items) => store.approve(declarations.folder, items),
    ...(options.files ? { files: options.files } : {}),
  };
}

/** Trusted for this run whatever it declares (tests and embedders that decide trust themselves). */
export function trustedForRun(projectDir: string): FolderTrust {
  const dir = path.resolve(projectDir);
  return {
    state: 'trusted',
    via: 'flag',
    declarations: { projectDir: dir, folder: realPath(dir), items: [] },
  };
}

/** Started in the user folder: its `.geekagent` is the person's own config, not a project's. */
function isUserStateFolder(projectDir: string, options: TrustOptions): boolean {
  return (
    realPath(path.join(projectDir, '.geekagent')) === realPath(userStateDir(options.env, options.homeDir))
  );
}

/** Trusted by the person (or for them: their own state folder, `--trust`), not only by default. */
export function trustedByPerson(trust: FolderTrust): boolean {
  return trust.state === 'trusted' && trust.via !== 'empty' && trust.via !== 'unconfirmed';
}
