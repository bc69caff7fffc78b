/**
 * The files a confined command must not write although they lie in a writable folder, because
 * something outside the sandbox runs them later: git hooks and config, shell rc files, editor
 * folders. The library finds these itself, but relative to the process's cwd (not the sandbox
 * root: `--cwd`, `mcp serve --root`) and, for nested repositories, only `.git/config` one level
 * down (its ripgrep depth stops above `sub/.git/hooks/*`). This scan is made from the root and
 * finds every `.git` folder down to three levels, so what it adds is always at least what the
 * library finds there. Run on every writable folder (the library's denies count only there), and
 * for every command (in-process, a few listings): a reused line (line-cache.ts) is one whose
 * inputs, these among them, did not change. The repositories it finds are what leftovers.ts
 * looks at after the command.
 */
import { type Dirent, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The library's list (sandbox-utils.js DANGEROUS_FILES), compared case-insensitively as it does. */
const DANGEROUS_FILES = [
  '.gitconfig',
  '.gitmodules',
  '.bashrc',
  '.bash_profile',
  '.zshrc',
  '.zprofile',
  '.profile',
  '.ripgreprc',
  '.mcp.json',
];
/** Denied whole where found. */
const DANGEROUS_DIRS = ['.vscode', '.idea'];
/** Denied inside a `.claude` folder. */
const CLAUDE_DIRS = ['commands', 'agents'];
/** Levels below the root whose entries are looked at: the library's ripgrep `--max-depth 3`. */
const DEPTH = 3;
/** A tree with more folders than this in its top levels is not fully scanned: `complete` is false. */
const MAX_DIRS = 4000;

export interface DangerousScan {
  /** Absolute paths to keep read-only (existing or not: an absent one must not be created). */
  denies: string[];
  /** False when the tree was too large to scan to the full depth. */
  complete: boolean;
  /** Repositories found: every `.git` entry (folder, file or link) and folder that is a gitdir. */
  repos: string[];
}

/**
 * `own`: the base is a project (the root, the cwd): its own rc files and editor folders are denied
 * even while absent (the library does so in its cwd). Elsewhere only what is there.
 */
export function scanDangerous(base: string, own: boolean): DangerousScan {
  const denies = new Set<string>();
  const repos: string[] = [];
  let dirs = 0;
  let complete = true;
  if (own) {
    for (const name of DANGEROUS_FILES) denies.add(path.join(base, name));
    for (const name of DANGEROUS_DIRS) denies.add(path.join(base, name));
    for (const name of CLAUDE_DIRS) denies.add(path.join(base, '.claude', name));
  }
  if (isDirectory(path.join(base, '.git'))) gitDenies(path.join(base, '.git'), denies);
  const queue: Array<{ dir: string; depth: number }> = [{ dir: base, depth: 1 }];
  while (queue.length > 0) {
    const { dir, depth } = queue.shift() as { dir: string; depth: number };
    if (dirs >= MAX_DIRS) {
      complete = false;
      break;
    }
    dirs++;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    if (isBareGitDir(entries)) repos.push(dir);
    for (const entry of entries) {
      const name = entry.name.toLowerCase();
      const full = path.join(dir, entry.name);
      if (DANGEROUS_FILES.includes(name)) denies.add(full);
      if (name === '.git') repos.push(full);
      if (!entry.isDirectory()) continue;
      if (name === 'node_modules') continue;
      if (name === '.git') {
        gitDenies(full, denies);
        continue;
      }
      if (DANGEROUS_DIRS.includes(name)) {
        denies.add(full);
        continue;
      }
      if (name === '.claude') for (const sub of CLAUDE_DIRS) denies.add(path.join(full, sub));
      if (depth < DEPTH) queue.push({ dir: full, depth: depth + 1 });
    }
  }
  return { denies: [...denies], complete, repos };
}

/** A folder git takes for a repository of its own (a bare one): HEAD, objects/ and refs/. */
function isBareGitDir(entries: readonly Dirent[]): boolean {
  const has = (name: string, dir: boolean) =>
    entries.some((entry) => entry.name === name && (dir ? entry.isDirectory() : !entry.isDirectory()));
  return has('HEAD', false) && has('objects', true) && has('refs', true);
}

/** A repository's hooks and config, whether or not they exist yet (git would create them). */
function gitDenies(gitDir: string, denies: Set<string>): void {
  denies.add(path.join(gitDir, 'hooks'));
  denies.add(path.join(gitDir, 'config'));
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
