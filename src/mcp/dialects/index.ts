/**
 * Finding other clients' MCP servers: every location of the chosen dialects read (missing files
 * skipped, unreadable ones reported), each entry converted or explained.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { errorMessage } from '../../util/errors.js';
import { claudeCode, claudeDesktop } from './claude.js';
import { codex } from './codex.js';
import { cursor, vscode } from './editors.js';
import { gemini } from './gemini.js';
import type { Dialect, DialectContext, DialectName, SourceProblem, SourceRead } from './types.js';

export * from './types.js';

const ALL: readonly Dialect[] = [claudeCode, claudeDesktop, vscode, cursor, gemini, codex];

export interface FoundSources {
  sources: SourceRead[];
  problems: SourceProblem[];
  /** Every file looked at, for "nothing found" messages. */
  looked: Array<{ dialect: DialectName; file: string }>;
}

export async function findSources(
  context: DialectContext,
  which: readonly DialectName[] | undefined,
): Promise<FoundSources> {
  const found: FoundSources = { sources: [], problems: [], looked: [] };
  const texts = new Map<string, Promise<string | undefined>>();
  for (const dialect of ALL) {
    if (which && !which.includes(dialect.name)) continue;
    for (const location of dialect.locations(context)) {
      found.looked.push({ dialect: dialect.name, file: location.file });
      if (!texts.has(location.file)) texts.set(location.file, readIfPresent(location.file));
      try {
        const text = await texts.get(location.file)!;
        if (text === undefined) continue;
        const read = dialect.read(text, location, context);
        if (read) found.sources.push(read);
      } catch (error) {
        const known = found.problems.some((p) => p.file === location.file && p.dialect === dialect.name);
        if (!known)
          found.problems.push({ dialect: dialect.name, file: location.file, error: errorMessage(error) });
      }
    }
  }
  return found;
}

/** Regular files only, opened without blocking (a FIFO planted in a project must not hang us). */
async function readIfPresent(file: string): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
  try {
    if (!(await handle.stat()).isFile()) throw new Error('not a regular file');
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
