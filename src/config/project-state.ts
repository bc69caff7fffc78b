/**
 * Where the user's own state keeps things per project folder: `<userDir>/projects/<key>` (its
 * sessions, its undo history), out of the folder itself, so a cloned repository cannot plant any
 * of it. The key is the folder's real path as a readable slug (its last 48 characters) and a short
 * hash of the whole path, so two folders never share one, whatever their names. (Apart from paths.ts: the launcher
 * imports that one and loads nothing it does not need.)
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../util/sha256.js';

export function userProjectDir(userDir: string, projectDir: string): string {
  return path.join(userDir, 'projects', projectKey(realFolder(projectDir)));
}

/** `/home/ada/src/app` → `home-ada-src-app-1f2e3d4c5b6a`. */
export function projectKey(realDir: string): string {
  const slug = realDir
    .replace(/[^A-Za-z0-9]+/g, '-')
    .slice(-48)
    .replace(/^-+|-+$/g, '');
  // sha256Hex, not node:crypto: every start computes this key, and crypto would load for it.
  const hash = sha256Hex(realDir).slice(0, 12);
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
