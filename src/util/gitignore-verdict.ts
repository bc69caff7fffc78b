/**
 * Whether a path is ignored by the .gitignore files above it, as git decides: the deepest file
 * with an opinion wins (a `!rule` below re-includes). Shared by the `search` tool's walk and
 * `@path` mentions.
 */
import path from 'node:path';
import type { Ignore } from 'ignore';

/** One .gitignore: the folder it sits in and its rules. */
export interface IgnoreScope {
  dir: string;
  rules: Ignore;
}

/** `scopes` from the root down to the path's own folder. */
export function isIgnoredBy(absolute: string, isDir: boolean, scopes: readonly IgnoreScope[]): boolean {
  for (let i = scopes.length - 1; i >= 0; i--) {
    const scope = scopes[i]!;
    const relative = path.relative(scope.dir, absolute).split(path.sep).join('/') + (isDir ? '/' : '');
    const verdict = scope.rules.test(relative);
    if (verdict.unignored) return false;
    if (verdict.ignored) return true;
  }
  return false;
}
