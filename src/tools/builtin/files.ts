/**
 * ls and read: looking at the project without changing it. Paths go through the sandbox and files
 * are opened through workspace/root-files.ts (regular files only, identity checked after
 * opening, no second hard link); read hands out fixed-size slices so a large file never floods the
 * model's context. ls never follows a link out of the root.
 */
import type { Dirent } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import * as z from '../../util/schema.js';
import { type FileLabel, listFolderInRoot, openInRoot, realRootsOf } from '../../workspace/root-files.js';
import { isInside } from '../../workspace/root-sandbox.js';
import { toolArguments } from '../arguments.js';
import { type Tool, type ToolContext, ToolError } from '../types.js';
import { errnoCode, looksBinary } from './args.js';

export const LS_ENTRY_LIMIT = 1000;
export const READ_SLICE_CHARS = 2000;
/** read loads the whole file to count characters; past this it refuses rather than stall. */
export const READ_MAX_BYTES = 50 * 1024 * 1024;

const lsArgs = toolArguments('ls', () =>
  z.object({
    path: z.optional(
      z
        .string()
        .check(z.describe('Directory (or file) relative to the project root. Defaults to "." (the root).')),
    ),
  }),
);

const readArgs = toolArguments('read', () =>
  z.object({
    path: z.string().check(z.describe('File path relative to the project root.')),
    offset: z.optional(
      z
        .int()
        .check(
          z.minimum(0),
          z.describe(
            `Character offset to start from (default 0). Each call returns up to ${READ_SLICE_CHARS} characters.`,
          ),
        ),
    ),
  }),
);

export function createLsTool(): Tool {
  return {
    name: 'ls',
    description:
      'Lists a directory inside the project: one entry per line, sorted, directories marked with a trailing "/". ' +
      `Hidden entries are included. At most ${LS_ENTRY_LIMIT} entries. For a file, returns its path and size.`,
    get parameters() {
      return lsArgs.parameters;
    },
    async run(args, ctx) {
      const requested = lsArgs.parse(args).path ?? '.';
      const absolute = await ctx.sandbox.resolve(requested);
      const missing = (error: unknown) => {
        if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') {
          throw new ToolError(`ls: no such file or directory: ${requested}`);
        }
        throw error;
      };
      const listed = await listFolderInRoot(ctx.sandbox, absolute, { tool: 'ls', requested }).catch(missing);
      if (listed === undefined) {
        const info = await stat(absolute).catch(missing);
        return `${ctx.sandbox.display(absolute)} (${info.size} bytes)`;
      }
      return listDirectory(listed.real, listed.entries, await realRootsOf(ctx.sandbox));
    },
  };
}

async function listDirectory(real: string, entries: Dirent[], realRoots: string[]): Promise<string> {
  const names = await Promise.all(entries.map((entry) => entryName(real, entry, realRoots)));
  if (names.length === 0) return '(empty directory)';
  names.sort(compareStrings);
  const shown = names.slice(0, LS_ENTRY_LIMIT);
  if (names.length > LS_ENTRY_LIMIT) shown.push(`(showing ${LS_ENTRY_LIMIT} of ${names.length} entries)`);
  return shown.join('\n');
}

/** A link into the root is shown as what it leads to (`dir/`); one leading out is never followed. */
async function entryName(real: string, entry: Dirent, realRoots: string[]): Promise<string> {
  if (entry.isDirectory()) return `${entry.name}/`;
  if (!entry.isSymbolicLink()) return entry.name;
  const target = await realpath(path.join(real, entry.name)).catch(() => undefined);
  if (target === undefined) return entry.name;
  if (!realRoots.some((realRoot) => isInside(realRoot, target))) return `${entry.name} (link outside root)`;
  const isDir = await stat(target).then(
    (info) => info.isDirectory(),
    () => false,
  );
  return isDir ? `${entry.name}/` : entry.name;
}

export function createReadTool(): Tool {
  return {
    name: 'read',
    description:
      `Reads a text file inside the project, ${READ_SLICE_CHARS} characters at a time. The first line is a header ` +
      '"<path> (chars <from>-<to> of <total>)"; when more remains, the last line says which offset to ask for next. ' +
      'Binary files are refused.',
    get parameters() {
      return readArgs.parameters;
    },
    async run(args, ctx) {
      const { path: requested, offset = 0 } = readArgs.parse(args);
      const absolute = await ctx.sandbox.resolve(requested);
      const text = await readTextFile(absolute, requested, ctx);
      return sliceText(text, offset, ctx.sandbox.display(absolute));
    },
  };
}

async function readTextFile(absolute: string, requested: string, ctx: ToolContext): Promise<string> {
  const label: FileLabel = { tool: 'read', requested };
  const opened = await openInRoot(ctx.sandbox, absolute, label);
  if (opened.kind === 'missing') throw new ToolError(`read: no such file: ${requested}`);
  if (opened.kind === 'directory')
    throw new ToolError(`read: ${requested} is a directory; use ls to list it`);
  const { handle, stats } = opened;
  try {
    if (stats.size > READ_MAX_BYTES) {
      throw new ToolError(
        `read: ${requested} is too large (${stats.size} bytes, at most ${READ_MAX_BYTES}); use search to find the part you need`,
      );
    }
    if (ctx.fileAccess) {
      // Checked on disk above (inside the root, a regular single-link file); the text is the editor's.
      const text = await ctx.fileAccess.readText(opened.real, ctx.signal);
      if (text.slice(0, 8192).includes('\0')) throw new ToolError(`read: ${requested} is a binary file`);
      return text;
    }
    const bytes = await handle.readFile({ signal: ctx.signal });
    if (looksBinary(bytes)) throw new ToolError(`read: ${requested} is a binary file`);
    return bytes.toString('utf8');
  } finally {
    await handle.close();
  }
}

function sliceText(text: string, offset: number, shownPath: string): string {
  const total = text.length;
  if (offset > 0 && offset >= total) {
    throw new ToolError(`read: offset ${offset} is beyond the end of ${shownPath} (${total} chars)`);
  }
  let to = Math.min(offset + READ_SLICE_CHARS, total);
  // Never split a surrogate pair: the next slice would start with half a character.
  if (to < total && isHighSurrogate(text.charCodeAt(to - 1))) to -= 1;
  const lines = [`${shownPath} (chars ${offset}-${to} of ${total})`, text.slice(offset, to)];
  if (to < total) lines.push(`(continued: call read with offset ${to} for the next part)`);
  return lines.join('\n');
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Plain code-unit order: stable across locales, which keeps listings deterministic. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
