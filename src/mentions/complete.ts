/**
 * Completing `@src/ap` to files and folders under the project root, one folder at a time as a
 * shell does: the entries of the typed folder that start with the typed name, .gitignore'd ones,
 * `.git` and links out of the root left out; hidden entries only when the name starts with `.`.
 */
import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { isInside } from '../util/root-read.js';
import type { AttachContext } from './attach.js';

const MAX_COMPLETIONS = 50;

/** Whole replacements for `word` (`@…`): folders end in `/`; paths with blanks are quoted. */
export async function completePath(word: string, ctx: AttachContext): Promise<string[]> {
  if (!word.startsWith('@')) return [];
  const typed = word.slice(1).replace(/^"|"$/g, '');
  const slash = typed.lastIndexOf('/');
  const folder = slash < 0 ? '' : typed.slice(0, slash + 1);
  const prefix = typed.slice(slash + 1);
  const dir = path.resolve(ctx.root, folder);
  if (path.isAbsolute(folder) || !isInside(ctx.root, dir)) return [];
  const realDir = await realpath(dir).catch(() => undefined);
  if (realDir === undefined || !isInside(ctx.realRoot, realDir)) return [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const entry of entries) {
    if (!entry.name.startsWith(prefix) || entry.name === '.git') continue;
    if (entry.name.startsWith('.') && !prefix.startsWith('.')) continue;
    const absolute = path.join(dir, entry.name);
    let isDir = entry.isDirectory();
    if (entry.isSymbolicLink()) {
      const target = await realpath(absolute).catch(() => undefined);
      if (target === undefined || !isInside(ctx.realRoot, target)) continue;
      isDir =
        (await readdir(target)
          .then(() => true)
          .catch(() => false)) === true;
    }
    if (await ctx.ignore.ignored(absolute, isDir)) continue;
    out.push(`${folder}${entry.name}${isDir ? '/' : ''}`);
  }
  out.sort();
  return out.slice(0, MAX_COMPLETIONS).map((name) => (/\s/.test(name) ? `@"${name}"` : `@${name}`));
}
