/**
 * What `rag_add` reads: a source string becomes documents — one file, every text file under a
 * folder, a glob's matches (all inside the root, symlinks not followed out of it), or one http(s)
 * URL fetched through the fetch tool's guarded request (so its address rules apply). Files over
 * 2 MB and binaries are skipped with a reason; secret files (`.env*`, keys, credentials:
 * util/secret-files.ts), `.geekagent`, `.git` and `node_modules` are never read. A file is read
 * as `read` and `search` read it (workspace/root-files.ts): a regular file with one hard link,
 * opened without following a link and checked to be the one inside the root.
 */
import { lstat, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { guardedGet, systemResolver } from '../tools/builtin/fetch-request.js';
import { FetchAllowList } from '../util/network.js';
import { isSecretFile } from '../util/secret-files.js';
import { readWalkedFile } from '../workspace/root-files.js';

export const MAX_SOURCE_BYTES = 2 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;
const SKIPPED_FOLDERS = new Set(['.git', '.geekagent', 'node_modules']);

/** One document to index, or why one was not. */
export type SourceItem =
  | { kind: 'text'; key: string; text: string; bytes: number }
  | { kind: 'skipped'; key: string; reason: string };

export interface SourceContext {
  root: string;
  allowHosts: readonly string[];
  signal: AbortSignal;
}

export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** The files (root-relative, `/`-separated) a source names; URLs are handled by `readUrl`. */
export async function listFiles(source: string, root: string, signal: AbortSignal): Promise<string[]> {
  const realRoot = await realpath(root);
  if (path.isAbsolute(source) ? !inside(realRoot, source) && !inside(root, source) : leaves(source))
    throw new Error(`${source}: outside the project root`);
  const relative = path.isAbsolute(source) ? path.relative(root, source) : source;
  if (/[*?[\]{}]/.test(relative)) {
    // Loaded when used, not at start-up (issue 18).
    const { glob } = await import('tinyglobby');
    const found = await glob(relative, {
      cwd: root,
      dot: false,
      ignore: ['**/node_modules/**'],
      followSymbolicLinks: false,
      signal,
    });
    const kept: string[] = [];
    for (const match of found.sort()) {
      const real = await realpath(path.join(root, match)).catch(() => undefined);
      if (real !== undefined && inside(realRoot, real) && !hidden(match))
        kept.push(match.split(path.sep).join('/'));
    }
    return kept;
  }
  const absolute = path.resolve(root, relative);
  const real = await realpath(absolute).catch(() => undefined);
  if (real === undefined) throw new Error(`${source}: no such file or folder`);
  if (!inside(realRoot, real)) throw new Error(`${source}: outside the project root`);
  const info = await lstat(real);
  const shown = path.relative(root, absolute).split(path.sep).join('/') || '.';
  if (info.isFile()) {
    if (hidden(shown)) throw new Error(`${source}: refusing to index a protected file`);
    return [shown];
  }
  if (!info.isDirectory()) throw new Error(`${source}: not a file or folder`);
  const files: string[] = [];
  await walk(real, shown === '.' ? '' : shown, files, signal);
  return files.sort();
}

async function walk(dir: string, prefix: string, out: string[], signal: AbortSignal): Promise<void> {
  if (signal.aborted) throw new Error('cancelled');
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    const shown = prefix ? `${prefix}/${entry.name}` : entry.name;
    // Links are not followed: a folder link could lead out of the root or loop.
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) {
      if (SKIPPED_FOLDERS.has(entry.name) || entry.name.startsWith('.')) continue;
      await walk(path.join(dir, entry.name), shown, out, signal);
    } else if (entry.isFile() && !hidden(shown)) {
      out.push(shown);
    }
  }
}

/** Reads one root-relative file as a document (or says why not). */
export async function readSourceFile(root: string, relative: string): Promise<SourceItem> {
  const file = path.join(root, relative);
  const info = await lstat(file).catch(() => undefined);
  if (info === undefined || !info.isFile())
    return { kind: 'skipped', key: relative, reason: 'not a regular file' };
  // Its other name may be outside the root: `read` and `search` refuse it too.
  if (info.nlink > 1)
    return {
      kind: 'skipped',
      key: relative,
      reason: `it has ${info.nlink} hard links (another name may be outside the root)`,
    };
  if (info.size > MAX_SOURCE_BYTES)
    return { kind: 'skipped', key: relative, reason: `${info.size} bytes, over the 2 MB limit` };
  const realRoot = await realpath(root).catch(() => root);
  const bytes = await readWalkedFile(file, realRoot, MAX_SOURCE_BYTES);
  if (bytes === undefined)
    return {
      kind: 'skipped',
      key: relative,
      reason: 'changed while being read (not a single regular file inside the root any more)',
    };
  const text = decodeText(bytes);
  if (text === undefined) return { kind: 'skipped', key: relative, reason: 'binary' };
  return { kind: 'text', key: relative, text, bytes: bytes.length };
}

export async function readUrl(url: string, context: SourceContext): Promise<SourceItem> {
  const parsed = new URL(url);
  const signal = AbortSignal.any([context.signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]);
  const outcome = await guardedGet(parsed, {
    signal,
    allow: new FetchAllowList(context.allowHosts),
    resolve: systemResolver,
    accept: 'text/html, text/plain;q=0.9, text/markdown;q=0.9, */*;q=0.5',
  });
  if (outcome.kind === 'redirect')
    return {
      kind: 'skipped',
      key: url,
      reason: `redirects to another host (${outcome.to}); add that URL instead`,
    };
  const response = outcome.response;
  if (response.status >= 400) {
    response.body.destroy();
    return { kind: 'skipped', key: url, reason: `HTTP ${response.status}` };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > MAX_SOURCE_BYTES) {
      response.body.destroy();
      return { kind: 'skipped', key: url, reason: 'over the 2 MB limit' };
    }
  }
  const bytes = Buffer.concat(chunks);
  const mime = (response.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const text = decodeText(bytes);
  if (text === undefined || (mime !== '' && !isTextType(mime)))
    return { kind: 'skipped', key: url, reason: `not text (${mime || 'binary'})` };
  const body =
    mime === 'text/html' || mime === 'application/xhtml+xml'
      ? (await import('html-to-text')).convert(text, { wordwrap: false })
      : text;
  return { kind: 'text', key: url, text: body, bytes: bytes.length };
}

/** UTF-8 text, or undefined for binary (a NUL byte in the head, or bytes that are not UTF-8). */
function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.subarray(0, 8192).includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function isTextType(mime: string): boolean {
  return (
    mime.startsWith('text/') ||
    mime.endsWith('+json') ||
    mime.endsWith('+xml') ||
    ['application/json', 'application/xml', 'application/javascript'].includes(mime)
  );
}

/** Secret files and anything under a dot-folder (`.geekagent`, `.git`) stay out of the index. */
function hidden(relative: string): boolean {
  const parts = relative.split(/[\\/]/);
  return (
    parts.some(
      (part) => part === 'node_modules' || (part.startsWith('.') && part !== '.' && part !== '..'),
    ) || isSecretFile(relative)
  );
}

function leaves(pattern: string): boolean {
  return pattern.split(/[/\\{},()|]/).some((segment) => segment === '..');
}

function inside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
