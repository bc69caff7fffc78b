/**
 * Git's command-running files: where a repository keeps what git runs by itself later (its
 * config — core.fsmonitor, core.pager, drivers… — and its hooks), wherever that repository is:
 * a `.git` folder, a `.git` file pointing at a gitdir, a bare repository, a worktree's or a
 * submodule's gitdir. The file tools treat these as protected (workspace/protected.ts), the
 * sandbox looks at them after each confined command (sandbox/git-guard.ts).
 */
import { type Stats, statSync } from 'node:fs';
import path from 'node:path';

/** Files of a gitdir that say what git runs or where it reads that (case-folded). */
const GITDIR_FILES = new Set(['config', 'config.worktree', 'commondir']);

/**
 * `dir` looks like a gitdir: it holds a `HEAD` file, or an `objects` or `refs` folder (git
 * wants all three; any one is enough here, so a repository being put together counts early). A
 * `config` file alone is not evidence: a project's `config` beside its `hooks/` folder is common.
 * `besides` is left out of the evidence (the file being judged).
 */
export function looksLikeGitDir(dir: string, besides?: string): boolean {
  const is = (name: string, kind: 'file' | 'dir') => {
    if (besides !== undefined && name.toLowerCase() === besides.toLowerCase()) return false;
    const stat = statQuiet(path.join(dir, name));
    return stat !== undefined && (kind === 'file' ? stat.isFile() : stat.isDirectory());
  };
  return is('HEAD', 'file') || is('objects', 'dir') || is('refs', 'dir');
}

/**
 * `absolute` is one of git's command-running files, or would become one: a `.git` entry itself
 * (a `.git` file redirects to any gitdir), `config`, `config.worktree`, `commondir` or anything
 * under `hooks/` in a `.git` folder (submodules' and worktrees' gitdirs inside it too), and the
 * same files in any other folder that looks like a gitdir (bare, separate or linked gitdirs).
 * Names compare case-insensitively (a case-insensitive disk).
 */
export function isGitCommandFile(absolute: string): boolean {
  const parts = absolute.split(path.sep);
  const lower = parts.map((part) => part.toLowerCase());
  const name = lower[lower.length - 1] ?? '';
  if (name === '.git') return true;
  const inGit = lower.lastIndexOf('.git');
  if (inGit >= 0) {
    if (lower.slice(inGit + 1, -1).includes('hooks')) return true;
    if (GITDIR_FILES.has(name) || name === 'hooks') return true;
  }
  const parent = parts.slice(0, -1).join(path.sep) || path.sep;
  if (GITDIR_FILES.has(name) && looksLikeGitDir(parent)) return true;
  // A HEAD beside a config: a gitdir being put together, config first.
  if (name === 'head' && (looksLikeGitDir(parent, 'HEAD') || isFile(path.join(parent, 'config'))))
    return true;
  // `<gitdir>/hooks/…` outside a `.git` folder (bare or separate gitdirs).
  for (let at = lower.indexOf('hooks'); at > 0; at = lower.indexOf('hooks', at + 1)) {
    if (looksLikeGitDir(parts.slice(0, at).join(path.sep) || path.sep)) return true;
  }
  return false;
}

function isFile(p: string): boolean {
  return statQuiet(p)?.isFile() === true;
}

/** Absent or not ours to look at (EACCES, ENOTDIR) is the same answer here: nothing. */
function statQuiet(p: string): Stats | undefined {
  try {
    return statSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
