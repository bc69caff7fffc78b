/**
 * glob: file names matching a pattern under the permission root, skipping node_modules and
 * dotfiles. Patterns are relative to root; ones that climb out are refused before any walking,
 * and a match reached through a link that leads out of the root is dropped.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import * as z from '../../util/schema.js';
import { realRootOf } from '../../workspace/root-files.js';
import { isInside } from '../../workspace/root-sandbox.js';
import { toolArguments } from '../arguments.js';
import { type Tool, ToolError } from '../types.js';
import { compareStrings } from './files.js';

export const GLOB_RESULT_LIMIT = 200;

const globArgs = toolArguments('glob', () =>
  z.object({
    pattern: z
      .string()
      .check(z.describe('Glob pattern relative to the project root; supports *, **, ?, [abc] and {a,b}.')),
  }),
);

export function createGlobTool(): Tool {
  return {
    name: 'glob',
    description:
      'Finds files by glob pattern (e.g. "src/**/*.ts", "*.md") relative to the project root. Returns matching ' +
      `file paths, sorted, at most ${GLOB_RESULT_LIMIT}. Skips node_modules and hidden files and folders.`,
    get parameters() {
      return globArgs.parameters;
    },
    async run(args, ctx) {
      const { pattern } = globArgs.parse(args);
      if (pattern.trim() === '') throw new ToolError('glob: "pattern" must not be empty');
      if (leavesRoot(pattern)) throw new ToolError(`path outside root: ${pattern}`);
      // Loaded by the first glob call, not at start-up.
      const { glob } = await import('tinyglobby');
      const found = await glob(pattern, {
        cwd: ctx.sandbox.root,
        dot: false,
        ignore: ['**/node_modules/**'],
        // Following links could list trees outside the root.
        followSymbolicLinks: false,
        signal: ctx.signal,
      });
      // An aborted crawl may return a partial list; it must not pass for the answer.
      if (ctx.signal.aborted) throw new ToolError('glob: cancelled');
      // Brace or extglob tricks the check above missed still cannot show anything outside root.
      if (found.some((match) => path.isAbsolute(match) || match.startsWith('..'))) {
        throw new ToolError(`path outside root: ${pattern}`);
      }
      // tinyglobby does not follow links while crawling, but a pattern's fixed start (`link/*`) is
      // entered as written: keep only matches that really are inside the root.
      const matches = await insideRoot(found, ctx.sandbox.root, await realRootOf(ctx.sandbox));
      if (matches.length === 0) return `(no files match ${pattern})`;
      matches.sort(compareStrings);
      const shown = matches.slice(0, GLOB_RESULT_LIMIT);
      if (matches.length > GLOB_RESULT_LIMIT) {
        shown.push(`(showing ${GLOB_RESULT_LIMIT} of ${matches.length} matches)`);
      }
      return shown.join('\n');
    },
  };
}

/** Absolute patterns and any `..` segment could reach outside root; tinyglobby would follow them. */
function leavesRoot(pattern: string): boolean {
  if (path.isAbsolute(pattern)) return true;
  // Separators include brace and extglob punctuation, so `{..,src}/*` counts as climbing too.
  return pattern.split(/[/\\{},()|]/).some((segment) => segment === '..');
}

async function insideRoot(matches: string[], root: string, realRoot: string): Promise<string[]> {
  const kept = await Promise.all(
    matches.map((match) =>
      realpath(path.join(root, match)).then(
        (real) => (isInside(realRoot, real) ? match : undefined),
        () => undefined,
      ),
    ),
  );
  return kept.filter((match): match is string => match !== undefined);
}
