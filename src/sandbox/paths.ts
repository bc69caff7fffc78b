/**
 * What a confined command may not read or write: the deny list (credentials in the home folder,
 * the agent's own state) and the protected paths inside the root (the agent's config, `.env`
 * files; the library adds `.git/hooks`, `.git/config`, shell rc files itself).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** Under the run's home folder: hidden from every confined command. */
export const HOME_DENY_READ = ['.ssh', '.aws', '.gnupg', '.config/gcloud', '.netrc'] as const;

export function expandHome(entry: string, home: string): string {
  if (entry === '~') return home;
  if (entry.startsWith('~/')) return path.join(home, entry.slice(2));
  return path.resolve(entry);
}

/** The deny list: the home's credential folders, GeekAgent's user state, the user's additions. */
export function denyReadPaths(home: string, userStateDir: string, extra: readonly string[]): string[] {
  return unique([
    ...HOME_DENY_READ.map((entry) => path.join(home, entry)),
    path.resolve(userStateDir),
    ...extra.map((entry) => expandHome(entry, home)),
  ]);
}

/**
 * Read-only inside a writable root: every `.geekagent` folder given (config, pins, sessions) and
 * the `.env` files at the root's top (bubblewrap binds literal paths: only files that exist).
 */
export function protectedWritePaths(root: string, stateDirs: readonly string[]): string[] {
  const envFiles = listNames(root)
    .filter((name) => name === '.env' || name.startsWith('.env.'))
    .map((name) => path.join(root, name));
  return unique([...stateDirs.map((dir) => path.resolve(dir)), ...envFiles]);
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
