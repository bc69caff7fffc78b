/**
 * search: regex line search over the project's text files. Owns the walk: .gitignore rules
 * (nested files too), node_modules and hidden entries are pruned before descending, so ignored
 * trees cost nothing. Links are never followed, and every file is read through
 * workspace/root-files.ts: regular, single-linked files inside the root only (a FIFO never blocks).
 */
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { type IgnoreScope, isIgnoredBy } from '../../util/gitignore-verdict.js';
import * as z from '../../util/schema.js';
import { openInRoot, readWalkedFile, rootOfPath } from '../../workspace/root-files.js';
import { toolArguments } from '../arguments.js';
import { type Tool, ToolError } from '../types.js';
import { errnoCode, looksBinary } from './args.js';
import { compareStrings } from './files.js';

export const SEARCH_LINE_LIMIT = 50;
export const SEARCH_MAX_FILE_BYTES = 1024 * 1024;
const LINE_TEXT_LIMIT = 200;
/** Files read at once: enough to hide disk latency without exhausting file descriptors. */
const READ_CONCURRENCY = 16;

/** The rules of one .gitignore, which apply to paths relative to the folder holding it. */
interface Match {
  file: string;
  line: number;
  text: string;
}

const searchArgs = toolArguments('search', () =>
  z.object({
    pattern: z
      .string()
      .check(
        z.describe(
          'JavaScript regular expression (no slashes or flags; case-sensitive), e.g. "function\\s+main".',
        ),
      ),
    path: z.optional(
      z
        .string()
        .check(
          z.describe(
            'File or directory to search, relative to the project root. Defaults to the whole project.',
          ),
        ),
    ),
  }),
);

export function createSearchTool(): Tool {
  return {
    name: 'search',
    description:
      'Searches the lines of text files under a path for a JavaScript regular expression (an invalid regex is ' +
      'searched as literal text). Honours .gitignore; skips node_modules, hidden files and folders, binary files and ' +
      `files over 1 MB. Returns "path:line: text" lines, at most ${SEARCH_LINE_LIMIT}, with the total count when there are more.`,
    get parameters() {
      return searchArgs.parameters;
    },
    async run(args, ctx) {
      const { pattern, path: requested = '.' } = searchArgs.parse(args);
      if (pattern === '') throw new ToolError('search: "pattern" must not be empty');
      const start = await ctx.sandbox.resolve(requested);
      const info = await stat(start).catch((error: unknown) => {
        if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') {
          throw new ToolError(`search: no such file or directory: ${requested}`);
        }
        throw error;
      });
      const { regex, note } = compilePattern(pattern);
      // The root (or extra root) the path is in: .gitignore files are read from it down.
      const { root, realRoot } = await rootOfPath(ctx.sandbox, start);
      if (!info.isDirectory()) {
        // One named file: say why it cannot be searched (a FIFO, a device, a second hard link).
        const opened = await openInRoot(ctx.sandbox, start, { tool: 'search', requested });
        if (opened.kind === 'file') await opened.handle.close();
      }
      const files = info.isDirectory()
        ? await collectFiles(start, await scopesFor(root, start, realRoot), realRoot, ctx.signal)
        : [start];
      files.sort(compareStrings);

      const shown: Match[] = [];
      let total = 0;
      for (let i = 0; i < files.length; i += READ_CONCURRENCY) {
        throwIfAborted(ctx.signal);
        const batch = await Promise.all(
          files.slice(i, i + READ_CONCURRENCY).map((file) => searchFile(file, regex, realRoot)),
        );
        for (const matches of batch) {
          total += matches.length;
          for (const match of matches) if (shown.length < SEARCH_LINE_LIMIT) shown.push(match);
        }
      }

      const lines = note ? [note] : [];
      if (total === 0) lines.push(`(no matches for ${pattern})`);
      for (const match of shown)
        lines.push(`${ctx.sandbox.display(match.file)}:${match.line}: ${match.text}`);
      if (total > SEARCH_LINE_LIMIT) lines.push(`(showing ${SEARCH_LINE_LIMIT} of ${total} matching lines)`);
      return lines.join('\n');
    },
  };
}

function compilePattern(pattern: string): { regex: RegExp; note?: string } {
  try {
    return { regex: new RegExp(pattern) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      regex: new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
      note: `(not a valid regular expression: ${reason}; searched for it as literal text)`,
    };
  }
}

/**
 * The .gitignore scopes from root down to `start`, so searching a subfolder keeps root rules. A
 * folder the rules ignore (node_modules/pkg, dist) was asked for by name: search it without them.
 */
async function scopesFor(root: string, start: string, realRoot: string): Promise<IgnoreScope[]> {
  const scopes = await scopesAbove(root, start, realRoot);
  return start !== root && isIgnoredBy(start, true, scopes) ? [] : scopes;
}

async function scopesAbove(root: string, start: string, realRoot: string): Promise<IgnoreScope[]> {
  const dirs = [root];
  const relative = path.relative(root, start);
  if (relative !== '') {
    let current = root;
    for (const part of relative.split(path.sep)) {
      current = path.join(current, part);
      dirs.push(current);
    }
  }
  // `start` itself is loaded by the walk; only its ancestors are loaded here.
  dirs.pop();
  const scopes: IgnoreScope[] = [];
  for (const dir of dirs) {
    const scope = await loadScope(dir, realRoot);
    if (scope) scopes.push(scope);
  }
  return scopes;
}

async function loadScope(dir: string, realRoot: string): Promise<IgnoreScope | undefined> {
  const bytes = await readWalkedFile(path.join(dir, '.gitignore'), realRoot, SEARCH_MAX_FILE_BYTES);
  if (bytes === undefined) return undefined;
  // Loaded by the first search that meets a .gitignore, not at start-up.
  const { default: ignore } = await import('ignore');
  return { dir, rules: ignore().add(bytes.toString('utf8')) };
}

async function collectFiles(
  dir: string,
  parentScopes: IgnoreScope[],
  realRoot: string,
  signal: AbortSignal,
): Promise<string[]> {
  throwIfAborted(signal);
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    // An unreadable folder (permissions, vanished meanwhile) is skipped like ripgrep does.
    return [];
  }
  const hasRules = entries.some((entry) => entry.name === '.gitignore' && entry.isFile());
  const own = hasRules ? await loadScope(dir, realRoot) : undefined;
  const scopes = own ? [...parentScopes, own] : parentScopes;

  const files: string[] = [];
  const subdirs: string[] = [];
  for (const entry of entries) {
    // Symlinks are not followed: they can loop or lead outside the root.
    if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.isSymbolicLink()) continue;
    const absolute = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!isIgnoredBy(absolute, true, scopes)) subdirs.push(absolute);
    } else if (entry.isFile() && !isIgnoredBy(absolute, false, scopes)) {
      files.push(absolute);
    }
  }
  const nested = await Promise.all(subdirs.map((subdir) => collectFiles(subdir, scopes, realRoot, signal)));
  return files.concat(...nested);
}

async function searchFile(file: string, regex: RegExp, realRoot: string): Promise<Match[]> {
  const bytes = await readWalkedFile(file, realRoot, SEARCH_MAX_FILE_BYTES);
  if (bytes === undefined) return [];
  if (looksBinary(bytes)) return [];
  const matches: Match[] = [];
  const lines = bytes.toString('utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (regex.test(line)) matches.push({ file, line: i + 1, text: line.trim().slice(0, LINE_TEXT_LIMIT) });
  }
  return matches;
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new ToolError('search: cancelled');
}
