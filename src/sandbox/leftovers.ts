/**
 * What a confined command may not leave behind in the root, looked at after each one (issue 38):
 * git settings and hooks that the person's next `git status` or `git commit` runs outside the
 * sandbox — in any repository the root's scan finds (dangerous.ts: a new `.git` folder or file, a
 * bare gitdir, the gitdirs they lead to, their submodules' and worktrees'), however it was made —
 * and new `.env*` files at the root's top, which other tools read as settings. The sandbox keeps
 * the existing ones read-only; what is new is neutralised here and reported: the dangerous keys
 * unset (what the person had before is kept), hooks made not executable, `.env*` files removed.
 * A survey is a few listings and small reads, taken before the command and again after.
 */
import {
  type BigIntStats,
  chmodSync,
  lstatSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../util/errors.js';
import { looksLikeGitDir } from '../util/git-files.js';
import { visibleLine } from '../util/terminal-text.js';
import { addedDangerous, type ConfigEntry, configEntries, removeFromConfig } from './git-config.js';
import type { GitlinkCache } from './gitlinks.js';

/** Gitdirs followed from the repositories found (their modules and worktrees included). */
const MAX_GITDIRS = 64;
const MAX_CONFIG_BYTES = 1 << 20;
const CONFIG_FILES = ['config', 'config.worktree'];

interface Mark {
  /** What the file is (kind, inode, size, times): a different mark is a changed file. */
  id: string;
  content?: Buffer;
}

export interface Survey {
  configs: Map<string, Mark>;
  hooks: Map<string, string>;
  /** `.env*` names at the root's top. */
  envNames: Set<string>;
}

/**
 * `repos`: the `.git` entries and bare gitdirs the root's scan found; the submodules the root's
 * index lists are added, however deep (the root's `git status` enters them).
 */
export function survey(root: string, repos: readonly string[], gitlinks: GitlinkCache): Survey {
  const configs = new Map<string, Mark>();
  const hooks = new Map<string, string>();
  for (const gitDir of gitDirs([...repos, ...submodulesOf(root, gitlinks)])) {
    for (const name of CONFIG_FILES) {
      const file = path.join(gitDir, name);
      const id = identity(file);
      if (id !== undefined) configs.set(file, { id, ...contentOf(file) });
    }
    for (const name of listNames(path.join(gitDir, 'hooks'))) {
      const file = path.join(gitDir, 'hooks', name);
      hooks.set(file, identity(file) ?? '-');
    }
  }
  const envNames = new Set(listNames(root).filter(isEnvName));
  return { configs, hooks, envNames };
}

/**
 * Neutralises what appeared or changed between the two surveys in a folder the command could
 * write (`writable`); returns one line per thing done, for the person and the model.
 */
export function neutralise(
  root: string,
  before: Survey,
  after: Survey,
  writable: readonly string[],
): string[] {
  const done: string[] = [];
  const shown = (p: string) => visibleLine(isUnder(p, root) ? path.relative(root, p) : p);
  const mayWrite = (p: string) => writable.some((dir) => isUnder(realParent(p), dir));
  for (const [file, mark] of after.configs) {
    const was = before.configs.get(file);
    if (was?.id === mark.id || !mayWrite(file)) continue;
    const note = attempt(() => neutraliseConfig(file, mark, was));
    if (note) done.push(`${shown(file)}: ${note}`);
  }
  for (const [file, id] of after.hooks) {
    if (before.hooks.get(file) === id || file.endsWith('.sample') || !mayWrite(file)) continue;
    const note = attempt(() => neutraliseHook(file));
    if (note) done.push(`${shown(file)}: ${note}`);
  }
  for (const name of after.envNames) {
    if (before.envNames.has(name)) continue;
    const note = attempt(() => {
      rmSync(path.join(root, name), { recursive: true, force: true });
      return 'removed (a new .env file; other tools read it as settings)';
    });
    done.push(`${shown(path.join(root, name))}: ${note}`);
  }
  return done;
}

/** The note for the model and the person, or undefined when nothing was left. */
export function leftoversNote(done: readonly string[]): string | undefined {
  if (done.length === 0) return undefined;
  return (
    '[sandbox] this command left behind what would run or be read outside the sandbox later; undone:\n' +
    done.map((line) => `  - ${line}`).join('\n') +
    '\nA confined command may not set up git commands, hooks or .env files: the write tool asks the ' +
    'person for these, or run the command with "sandbox": false (asked).'
  );
}

/** A step that failed is reported as such (the person must know what is still there). */
function attempt(step: () => string | undefined): string | undefined {
  try {
    return step();
  } catch (error) {
    return `NOT undone (${visibleLine(errorMessage(error))}): remove it before running git here`;
  }
}

function neutraliseConfig(file: string, mark: Mark, was: Mark | undefined): string | undefined {
  const after = mark.content ? configEntries(mark.content) : undefined;
  const before: ConfigEntry[] = (was?.content ? configEntries(was.content) : undefined) ?? [];
  if (lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) {
    // Never edited through a link (it may lead to the person's own file): the link goes.
    if (after !== undefined && addedDangerous(before, after).length === 0) return undefined;
    rmSync(file, { force: true });
    return 'removed (a link to a config that runs commands, or one git cannot read)';
  }
  if (after === undefined) return setAside(file, 'git could not read it');
  const added = addedDangerous(before, after);
  if (added.length === 0) return undefined;
  const keys = [...new Set(added.map((entry) => visibleLine(entry.key)))].join(', ');
  if (!removeFromConfig(file, added, before)) return setAside(file, `it set ${keys}`);
  return `unset ${keys}`;
}

function setAside(file: string, why: string): string {
  const aside = `${file}.geekagent-blocked`;
  rmSync(aside, { recursive: true, force: true });
  renameSync(file, aside);
  return `moved to ${path.basename(aside)} (${why})`;
}

function neutraliseHook(file: string): string | undefined {
  const stat = lstatSync(file, { throwIfNoEntry: false });
  if (!stat) return undefined;
  if (stat.isSymbolicLink()) {
    rmSync(file, { force: true });
    return 'removed (a hook linked elsewhere)';
  }
  if (!stat.isFile() || (stat.mode & 0o111) === 0) return undefined;
  chmodSync(file, stat.mode & 0o7666);
  return 'made not executable (a new or changed git hook)';
}

/** The gitdirs the entries lead to, with the common dir, submodules and worktrees of each. */
function gitDirs(repos: readonly string[]): string[] {
  const found = new Set<string>();
  const queue = repos.map(gitDirOf).filter((dir): dir is string => dir !== undefined);
  while (queue.length > 0 && found.size < MAX_GITDIRS) {
    const dir = queue.shift() as string;
    if (found.has(dir)) continue;
    found.add(dir);
    const common = readLine(path.join(dir, 'commondir'));
    if (common) queue.push(path.resolve(dir, common));
    for (const group of ['modules', 'worktrees']) queue.push(...nestedGitDirs(path.join(dir, group), 4));
  }
  return [...found];
}

/** The `.git` entries of the checked-out submodules the root repository's index lists. */
function submodulesOf(root: string, gitlinks: GitlinkCache): string[] {
  const gitDir = gitDirOf(path.join(root, '.git'));
  if (!gitDir) return [];
  const config = contentOf(path.join(gitDir, 'config')).content?.toString('utf8') ?? '';
  const sha256 = /objectformat\s*=\s*sha256/i.test(config);
  return gitlinks
    .paths(gitDir, sha256)
    .map((relative) => path.join(root, ...relative.split('/'), '.git'))
    .filter((entry) => isUnder(entry, root) && lstatQuiet(entry) !== undefined);
}

/** Submodule gitdirs sit under `modules/<name>`, and a name may hold slashes. */
function nestedGitDirs(dir: string, depth: number): string[] {
  if (depth === 0) return [];
  return listNames(dir).flatMap((name) => {
    const sub = path.join(dir, name);
    if (!lstatQuiet(sub)?.isDirectory()) return [];
    return looksLikeGitDir(sub) ? [sub] : nestedGitDirs(sub, depth - 1);
  });
}

/** A `.git` folder or a bare gitdir is itself; a `.git` file names one (`gitdir: <path>`). */
function gitDirOf(entry: string): string | undefined {
  const stat = lstatQuiet(entry);
  if (!stat) return undefined;
  if (stat.isSymbolicLink()) return safeRealpath(entry);
  if (stat.isDirectory()) return entry;
  const line = readLine(entry);
  const named = line?.match(/^gitdir:\s*(.+)$/)?.[1];
  return named ? path.resolve(path.dirname(entry), named) : undefined;
}

function identity(file: string): string | undefined {
  let stat: BigIntStats | undefined;
  try {
    stat = lstatSync(file, { throwIfNoEntry: false, bigint: true });
  } catch {
    return undefined;
  }
  if (!stat) return undefined;
  return `${stat.mode}:${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

/** What is there, or undefined (absent, or not ours to look at). */
function lstatQuiet(p: string): Stats | undefined {
  try {
    return lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function contentOf(file: string): { content?: Buffer } {
  try {
    const content = readFileSync(file);
    return content.length <= MAX_CONFIG_BYTES ? { content } : {};
  } catch {
    return {};
  }
}

function readLine(file: string): string | undefined {
  try {
    const stat = lstatSync(file);
    if (!stat.isFile() || stat.size > 4096) return undefined;
    return readFileSync(file, 'utf8').split('\n')[0]?.trim() || undefined;
  } catch {
    return undefined;
  }
}

function isEnvName(name: string): boolean {
  const folded = name.toLowerCase();
  return folded === '.env' || folded.startsWith('.env.');
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Where a file really sits: its folder resolved, its own name kept (a link is judged where it is). */
function realParent(file: string): string {
  const parent = safeRealpath(path.dirname(file)) ?? path.dirname(file);
  return path.join(parent, path.basename(file));
}

function safeRealpath(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

function isUnder(p: string, dir: string): boolean {
  const relative = path.relative(dir, p);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
