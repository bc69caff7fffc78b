/**
 * `@path` in a command file: a file inside the project root, read the way project instructions
 * are (util/root-read.ts: no link out, no FIFO or device, no extra hard link), never a secret file
 * (util/secret-files.ts), nothing in a `.geekagent` folder or the user state folder (protected:
 * they configure the agent). Cut at MAX_INCLUDE_BYTES with a note in the text.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { isInside, readInsideRoot } from '../util/root-read.js';
import { isSecretFile, SECRET_FILE_REASON } from '../util/secret-files.js';
import type { IncludeResult } from './expand.js';

export const MAX_INCLUDE_BYTES = 64 * 1024;

export interface IncludeOptions {
  root: string;
  userDir: string;
}

export function fileIncluder(options: IncludeOptions): (relative: string) => Promise<IncludeResult> {
  return async (relative) => {
    const root = await realpath(options.root).catch(() => path.resolve(options.root));
    const target = path.resolve(root, relative);
    if (!isInside(root, target)) return { kind: 'refused', text: 'outside the project folder' };
    const refusal = refusedName(path.relative(root, target), target, options.userDir);
    if (refusal) return { kind: 'refused', text: refusal };
    const read = await readInsideRoot(target, root, MAX_INCLUDE_BYTES);
    if (read.kind === 'missing') return { kind: 'missing' };
    if (read.kind === 'refused') return { kind: 'refused', text: read.reason };
    // Judged again where a link inside the root leads (`notes.md -> .env`).
    const real = refusedName(path.relative(root, read.real), read.real, options.userDir);
    if (real) return { kind: 'refused', text: real };
    if (read.text.includes('\0')) return { kind: 'refused', text: 'a binary file' };
    const text = read.cut ? `${read.text}\n[cut at ${MAX_INCLUDE_BYTES} bytes]` : read.text;
    return { kind: 'included', text };
  };
}

function refusedName(relative: string, absolute: string, userDir: string): string | undefined {
  if (isSecretFile(relative)) return SECRET_FILE_REASON;
  const parts = relative.toLowerCase().split(/[\\/]/);
  if (parts.includes('.geekagent') || isInside(path.resolve(userDir), absolute))
    return 'a protected file (.geekagent, the user state folder) is never included';
  return undefined;
}
