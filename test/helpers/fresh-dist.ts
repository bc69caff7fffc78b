/**
 * The end-to-end tests run the built CLI: refuse a dist/ built from other sources than the tree
 * holds now (dist/source-stamp.json, written by `npm run build`), naming what changed and the fix.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
// @ts-expect-error: a build script without types.
import { STAMP_FILE, sourceStamp, staleInputs } from '../../scripts/source-stamp.mjs';

/** `sources`: the tree's stamp to compare with (default: computed now). */
export function assertFreshDist(root: string, sources?: Record<string, string>): void {
  let built: Record<string, string>;
  try {
    built = JSON.parse(readFileSync(path.join(root, STAMP_FILE), 'utf8'));
  } catch {
    throw new Error(
      `dist/ has no ${STAMP_FILE} (not built, or built before the stamp): run \`npm run build\``,
    );
  }
  const stale: string[] = staleInputs(built, sources ?? sourceStamp(root));
  if (stale.length > 0)
    throw new Error(
      `dist/ is older than the sources (${stale.slice(0, 5).join(', ')}${stale.length > 5 ? `, and ${stale.length - 5} more` : ''} changed since the last build): run \`npm run build\``,
    );
}
