/**
 * Where the user's own state keeps things per project folder: `<userDir>/projects/<key>` (its
 * sessions, its undo history), out of the folder itself, so a cloned repository cannot plant any
 * of it. The key is the folder's real path as a readable slug (its last 48 characters) and a short
 * hash of the whole path, so two folders never share one, whatever their names. (Apart from paths.ts: the launcher
 * imports that one and loads nothing it does not need.)
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import path from 'node:path';

export function userProjectDir(userDir: string, projectDir: string): string {
  return path.join(userDir, 'projects', projectKey(realFolder(projectDir)));
}

/** `/home/ada/src/app` → `home-ada-src-app-1f2e3d4c5b6a`. */
export function projectKey(realDir: string): string {
  const slug = realDir
    .replace(/[^A-Za-z0-9]+/g, '-')
    .slice(-48)
    .replace(/^-+|-+$/g, '');
  const hash = createHash('sha256').update(realDir).digest('hex').slice(0, 12);
  return `${slug || 'root'}-${hash}`;
}

/** The real path (links resolved): `cd` through a link finds the same sessions. */
function realFolder(dir: string): string {
  const resolved = path.resolve(dir);
  try {
    return realpathSync(resolved);
  } catch {
    return resolved;
  }
}
