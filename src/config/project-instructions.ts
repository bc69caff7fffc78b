/**
 * Project instructions: which files are read and how they become one text. `~/.geekagent/AGENTS.md`
 * first, then one file per folder from the git root (else the project root) down to the working
 * folder — `AGENTS.md`, or in a folder without one `CLAUDE.md`, else `GEMINI.md` —
 * with `@path` imports inlined (relative, inside the top folder, depth ≤ 5, cycles ignored), cut
 * to a byte budget. Read once at start; the text is untrusted project text (never printed raw).
 */
import { existsSync } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

export const PROJECT_INSTRUCTIONS_FILE = 'AGENTS.md';
/** Read in a folder without AGENTS.md, first found wins. */
export const FALLBACK_INSTRUCTION_FILES = ['CLAUDE.md', 'GEMINI.md'] as const;
export const DEFAULT_INSTRUCTIONS_MAX_BYTES = 32 * 1024;
export const MAX_IMPORT_DEPTH = 5;
/** One file larger than this is not instructions (a planted log): read only its head. */
const MAX_FILE_BYTES = 1024 * 1024;

export interface InstructionFile {
  /** As shown: relative to the top folder, or `~/.geekagent/AGENTS.md`. */
  name: string;
  bytes: number;
}

export interface ProjectInstructions {
  /** The combined text (already cut), or undefined when no file has any. */
  text: string | undefined;
  files: InstructionFile[];
  /** Bytes of `text`. */
  bytes: number;
  /** Set when the text was cut: the bytes it had before. */
  cutFrom?: number;
  budget: number;
}

export interface ReadInstructionsOptions {
  /** The working folder (deepest folder read). */
  cwd: string;
  /** The project root (permission root): the top when no git root is above the working folder. */
  root: string;
  /** The user state folder, for its AGENTS.md. */
  userDir: string;
  env: NodeJS.ProcessEnv;
}

/** `GEEKAGENT_INSTRUCTIONS_MAX_BYTES` or 32 KiB; nonsense falls back to the default. */
export function instructionsBudget(env: NodeJS.ProcessEnv): number {
  const raw = env.GEEKAGENT_INSTRUCTIONS_MAX_BYTES;
  const value = raw === undefined ? Number.NaN : Number(raw);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_INSTRUCTIONS_MAX_BYTES;
}

/** The nearest folder at or above `cwd` holding `.git`; undefined outside a repository. */
export function findGitRoot(cwd: string): string | undefined {
  let dir = path.resolve(cwd);
  for (;;) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Folders from `top` down to `cwd` (just `cwd` when `top` is not above it). */
export function foldersDown(top: string, cwd: string): string[] {
  const relative = path.relative(top, cwd);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return [cwd];
  const folders = [top];
  let dir = top;
  for (const part of relative.split(path.sep).filter(Boolean)) {
    dir = path.join(dir, part);
    folders.push(dir);
  }
  return folders;
}

export async function readProjectInstructions(
  options: ReadInstructionsOptions,
): Promise<ProjectInstructions> {
  const cwd = path.resolve(options.cwd);
  const root = path.resolve(options.root);
  const top = findGitRoot(cwd) ?? (isInside(root, cwd) ? root : cwd);
  const budget = instructionsBudget(options.env);
  const parts: string[] = [];
  const files: InstructionFile[] = [];

  const userFile = path.join(options.userDir, PROJECT_INSTRUCTIONS_FILE);
  const user = await readRegular(userFile);
  if (user !== undefined && user.trim() !== '') {
    const text = await inlineImports(user, userFile, path.dirname(userFile), new Set([userFile]), 1);
    parts.push(`# ~/.geekagent/${PROJECT_INSTRUCTIONS_FILE}\n${text.trim()}`);
    files.push({ name: `~/.geekagent/${PROJECT_INSTRUCTIONS_FILE}`, bytes: Buffer.byteLength(text) });
  }
  const topReal = await realpath(top).catch(() => top);
  for (const folder of foldersDown(top, cwd)) {
    for (const name of [PROJECT_INSTRUCTIONS_FILE, ...FALLBACK_INSTRUCTION_FILES]) {
      const file = path.join(folder, name);
      const raw = await readRegular(file);
      if (raw === undefined) continue;
      const shown = path.relative(top, file) || name;
      const text = (await inlineImports(raw, file, topReal, new Set([file]), 1)).trim();
      if (text !== '') {
        parts.push(`# ${shown}\n${text}`);
        files.push({ name: shown, bytes: Buffer.byteLength(text) });
      }
      break;
    }
  }
  if (parts.length === 0) return { text: undefined, files, bytes: 0, budget };
  const whole = parts.join('\n\n');
  const wholeBytes = Buffer.byteLength(whole);
  if (wholeBytes <= budget) return { text: whole, files, bytes: wholeBytes, budget };
  const cut = `${cutToBytes(whole, budget)}\n[… project instructions cut: ${wholeBytes} bytes, budget ${budget}]`;
  return { text: cut, files, bytes: Buffer.byteLength(cut), cutFrom: wholeBytes, budget };
}

const IMPORT = /(^|\s)@((?:\.{1,2}\/|[\w-]+\/)?[\w./-]*[\w-])(?=$|\s)/g;

/**
 * Replaces each `@path` outside code fences with that file's text (imports of imports too, to
 * MAX_IMPORT_DEPTH). A path outside `top` (after symlinks), missing, not a regular file, or
 * already on the import chain is left as written.
 */
async function inlineImports(
  text: string,
  file: string,
  top: string,
  chain: Set<string>,
  depth: number,
): Promise<string> {
  if (depth > MAX_IMPORT_DEPTH) return text;
  const lines = text.split('\n');
  let fenced = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced || !line.includes('@')) continue;
    const replacements: Array<[string, string]> = [];
    for (const match of line.matchAll(IMPORT)) {
      const target = path.resolve(path.dirname(file), match[2]!);
      const real = await realpath(target).catch(() => undefined);
      if (real === undefined || !isInside(top, real) || chain.has(real) || chain.has(target)) continue;
      const content = await readRegular(real);
      if (content === undefined) continue;
      const nested = await inlineImports(content, real, top, new Set([...chain, real, target]), depth + 1);
      replacements.push([`@${match[2]}`, nested.trim()]);
    }
    let replaced = line;
    for (const [token, content] of replacements) replaced = replaced.replace(token, () => content);
    lines[i] = replaced;
  }
  return lines.join('\n');
}

async function readRegular(file: string): Promise<string | undefined> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return undefined;
    const text = await readFile(file, 'utf8');
    return text.length > MAX_FILE_BYTES ? text.slice(0, MAX_FILE_BYTES) : text;
  } catch {
    return undefined;
  }
}

function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The longest prefix of `text` that is at most `bytes` UTF-8 bytes (never half a character). */
export function cutToBytes(text: string, bytes: number): string {
  const buffer = Buffer.from(text);
  if (buffer.length <= bytes) return text;
  let end = bytes;
  // Back off continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && (buffer[end]! & 0xc0) === 0x80) end--;
  return buffer.subarray(0, end).toString('utf8');
}
