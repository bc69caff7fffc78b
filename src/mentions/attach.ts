/**
 * What a mentioned path becomes: a text file's content (cut at a size with a note), a folder's
 * listing, an image's bytes, or a refusal with its reason — a secret file, GeekAgent's own state,
 * a binary file, a path outside the root or a link out of it. Files are read as the file tools
 * read them (util/root-read.ts: regular single-link files inside the root, links checked).
 */
import { type Dirent, realpathSync } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { looksBinary } from '../tools/builtin/args.js';
import { isInside, readBytesInsideRoot } from '../util/root-read.js';
import { isSecretFile, SECRET_FILE_REASON } from '../util/secret-files.js';
import { type GitignoreCache, IgnoreRules } from './ignore-rules.js';
import { sniffImage } from './image-type.js';

/** A text file is attached up to this many bytes, with a note where it was cut. */
export const MENTION_TEXT_BYTES = 100 * 1024;
/** An image is read up to this (the largest any API takes); each provider checks its own limit. */
export const MENTION_IMAGE_BYTES = 20 * 1024 * 1024;
/** A folder lists at most this many entries. */
export const MENTION_FOLDER_ENTRIES = 200;

export type Attachment =
  | { kind: 'missing' }
  | { kind: 'refused'; reason: string }
  /** `block`: for the model; `summary`: for the person's notice (`12 lines`). */
  | { kind: 'text'; block: string; summary: string }
  | { kind: 'image'; mimeType: string; data: Buffer };

export interface AttachContext {
  root: string;
  realRoot: string;
  /** The user state folder: never attached, even when it lies inside the root. */
  userDir: string;
  ignore: IgnoreRules;
  redact?: (text: string) => string;
}

/** `gitignores`: the project's .gitignore files as read before (none: read afresh). */
export async function attachContext(
  root: string,
  userDir: string,
  redact?: (text: string) => string,
  gitignores?: GitignoreCache,
): Promise<AttachContext> {
  const realRoot = await realpath(root).catch(() => root);
  return { root, realRoot, userDir, ignore: new IgnoreRules(root, realRoot, gitignores), redact };
}

/** The mention `name` (relative to the root, as typed) as an attachment. */
export async function attachPath(name: string, ctx: AttachContext): Promise<Attachment> {
  const absolute = path.resolve(ctx.root, name);
  if (!isInside(ctx.root, absolute)) {
    return (await exists(absolute))
      ? { kind: 'refused', reason: 'outside the project folder (mentions attach files inside it only)' }
      : { kind: 'missing' };
  }
  const own = await lstat(absolute).catch(() => undefined);
  if (!own) return { kind: 'missing' };
  const real = await realpath(absolute).catch(() => undefined);
  if (real === undefined) return { kind: 'refused', reason: 'a symbolic link to nothing' };
  if (!isInside(ctx.realRoot, real))
    return { kind: 'refused', reason: 'a symbolic link out of the project folder' };
  const relative = path.relative(ctx.root, absolute) || '.';
  const realRelative = path.relative(ctx.realRoot, real);
  const state = stateProblem([relative, realRelative], real, ctx.userDir);
  if (state) return { kind: 'refused', reason: state };
  const stats = await lstat(real).catch(() => undefined);
  if (stats?.isDirectory()) return folderListing(real, relative, ctx);
  if (isSecretFile(relative) || isSecretFile(realRelative))
    return { kind: 'refused', reason: SECRET_FILE_REASON };
  // A text file is read only as far as it is attached; an image (known by its first bytes) whole.
  let read = await readBytesInsideRoot(absolute, ctx.realRoot, MENTION_TEXT_BYTES + 1);
  if (read.kind !== 'bytes') return read;
  const mimeType = sniffImage(read.bytes);
  if (mimeType && read.cut) {
    read = await readBytesInsideRoot(absolute, ctx.realRoot, MENTION_IMAGE_BYTES);
    if (read.kind !== 'bytes') return read;
    if (!stillImage(read.bytes, mimeType)) return { kind: 'refused', reason: 'changing while being read' };
  }
  if (mimeType) {
    if (read.cut) return { kind: 'refused', reason: `an image over ${MENTION_IMAGE_BYTES / 1024 / 1024} MB` };
    return { kind: 'image', mimeType, data: read.bytes };
  }
  if (looksBinary(read.bytes)) {
    return {
      kind: 'refused',
      reason: 'a binary file (only text files and png/jpeg/gif/webp images are attached)',
    };
  }
  const ignored = await ctx.ignore.ignored(absolute, false);
  return textFile(relative, read.bytes, read.size, ignored, ctx);
}

/** The image's own type again after the whole read (the file may have changed in between). */
function stillImage(bytes: Buffer, mimeType: string): boolean {
  return sniffImage(bytes) === mimeType;
}

/**
 * An image path the person pasted: it may lie outside the root (a screenshot in ~/Desktop), so
 * only an image is read — a regular single-link file, its type from its bytes, never a secret file.
 */
export async function attachPastedImage(file: string): Promise<Attachment> {
  const real = await realpath(file).catch(() => undefined);
  if (real === undefined) return { kind: 'missing' };
  if (isSecretFile(real)) return { kind: 'refused', reason: SECRET_FILE_REASON };
  const read = await readBytesInsideRoot(real, path.dirname(real), MENTION_IMAGE_BYTES);
  if (read.kind !== 'bytes') return read;
  const mimeType = sniffImage(read.bytes);
  if (!mimeType) return { kind: 'refused', reason: 'not a png, jpeg, gif or webp image' };
  if (read.cut) return { kind: 'refused', reason: `an image over ${MENTION_IMAGE_BYTES / 1024 / 1024} MB` };
  return { kind: 'image', mimeType, data: read.bytes };
}

/** GeekAgent's own state (`.geekagent/`, the user state folder): the person reads it with a tool. */
function stateProblem(relatives: string[], real: string, userDir: string): string | undefined {
  if (relatives.some((relative) => relative.split(path.sep).includes('.geekagent')))
    return "GeekAgent's state folder (.geekagent) is not attached (the read tool can read a file there)";
  const realUser = realpathOr(userDir);
  if (isInside(realUser, real)) return 'the user state folder is never attached';
  return undefined;
}

function realpathOr(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

async function exists(file: string): Promise<boolean> {
  return (await lstat(file).catch(() => undefined)) !== undefined;
}

function textFile(
  relative: string,
  bytes: Buffer,
  size: number,
  ignored: boolean,
  ctx: AttachContext,
): Attachment {
  const cut = size > MENTION_TEXT_BYTES;
  let text = bytes.subarray(0, MENTION_TEXT_BYTES).toString('utf8');
  if (ctx.redact) text = ctx.redact(text);
  const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const notes = [`${lines} line${lines === 1 ? '' : 's'}`];
  if (cut) notes.push(`first ${kb(MENTION_TEXT_BYTES)} of ${kb(size)}`);
  if (ignored) notes.push('ignored by .gitignore');
  const label = `@${relative.split(path.sep).join('/')}`;
  const head = `Attached file ${label} (${notes.join('; ')}):`;
  const fence = fenceFor(text);
  const tail = cut ? `\n[cut at ${kb(MENTION_TEXT_BYTES)}; read the rest with the read tool]` : '';
  return {
    kind: 'text',
    block: `${head}\n${fence}\n${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${fence}${tail}`,
    summary: notes.join('; '),
  };
}

async function folderListing(real: string, relative: string, ctx: AttachContext): Promise<Attachment> {
  let entries: Dirent[];
  try {
    entries = await readdir(real, { withFileTypes: true });
  } catch (error) {
    return { kind: 'refused', reason: `unreadable (${(error as NodeJS.ErrnoException).code})` };
  }
  const names: string[] = [];
  let ignored = 0;
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const absolute = path.join(ctx.root, relative, entry.name);
    const isDir = entry.isDirectory();
    if (entry.name === '.git' || (await ctx.ignore.ignored(absolute, isDir))) {
      ignored++;
      continue;
    }
    names.push(`${entry.name}${isDir ? '/' : entry.isSymbolicLink() ? ' (link)' : ''}`);
  }
  const shown = names.slice(0, MENTION_FOLDER_ENTRIES);
  const notes = [`${names.length} entr${names.length === 1 ? 'y' : 'ies'}`];
  if (names.length > shown.length) notes.push(`first ${shown.length} listed`);
  if (ignored > 0) notes.push(`${ignored} ignored left out`);
  const label = `@${relative === '.' ? '.' : relative.split(path.sep).join('/')}/`;
  const listing = shown.length === 0 ? '(empty)' : shown.join('\n');
  return {
    kind: 'text',
    block: `Attached folder ${label} (${notes.join('; ')}):\n${listing}`,
    summary: notes.join('; '),
  };
}

/** A Markdown fence longer than any run of backticks in the text, so the text cannot close it. */
function fenceFor(text: string): string {
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

function kb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
