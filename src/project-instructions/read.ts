/**
 * Project instructions: which files are read and how they become one text. `~/.geekagent/AGENTS.md`
 * first, then one file per folder from the git root (else the project root) down to the working
 * folder — `AGENTS.md`, or in a folder without one `CLAUDE.md`, else `GEMINI.md` —
 * with `@path` imports inlined (relative, inside the top folder, depth ≤ 5, cycles ignored), cut
 * to a byte budget. Read once at start; the text is untrusted project text (never printed raw).
 * A project's files and every import are regular files inside the top folder, opened safely
 * (util/root-read.ts): a link is followed only to a regular file inside it (`CLAUDE.md ->
 * AGENTS.md`); a link out, a special or hard-linked file, and secret files (`@.env`, keys) are
 * skipped with a one-line notice in their place — never their content.
 */
import { existsSync } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { type EnvSetting, readEnvSetting } from '../settings/env-setting.js';
import { isInside, readInsideRoot } from '../util/root-read.js';
import { isSecretFile, SECRET_FILE_REASON } from '../util/secret-files.js';
import { visibleLine } from '../util/terminal-text.js';

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

/** A file or import that was not read, and why (shown to the person; the model gets it in place). */
export interface SkippedInstruction {
  name: string;
  reason: string;
}

export interface ProjectInstructions {
  /** The combined text (already cut), or undefined when no file has any. */
  text: string | undefined;
  files: InstructionFile[];
  skipped: SkippedInstruction[];
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

/** The project instructions section's variable (`geekagent config`: `instructions.maxBytes`). */
export const instructionsEnvSetting: EnvSetting<number> = {
  key: 'instructions.maxBytes',
  variable: 'GEEKAGENT_INSTRUCTIONS_MAX_BYTES',
  description: 'how much of AGENTS.md / GEEKAGENT.md (with imports) enters the system prompt, in bytes',
  default: DEFAULT_INSTRUCTIONS_MAX_BYTES,
  parse: (raw) => {
    const value = Number(raw);
    return Number.isInteger(value) && value > 0
      ? { ok: true, value }
      : {
          ok: false,
          problem: `GEEKAGENT_INSTRUCTIONS_MAX_BYTES=${visibleLine(raw)} is not a whole number of bytes: using ${DEFAULT_INSTRUCTIONS_MAX_BYTES}`,
        };
  },
};

/** `GEEKAGENT_INSTRUCTIONS_MAX_BYTES` or 32 KiB; nonsense falls back to the default (silently: `geekagent config` says). */
export function instructionsBudget(env: NodeJS.ProcessEnv): number {
  return readEnvSetting(instructionsEnvSetting, env).value;
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
  const skipped: SkippedInstruction[] = [];

  // The person's own file may be a link into their dotfiles: it is followed. Its imports are
  // checked like a project's, inside the state folder.
  const userFile = path.join(options.userDir, PROJECT_INSTRUCTIONS_FILE);
  const user = await readRegular(userFile);
  if (user !== undefined && user.trim() !== '') {
    const userTop = await realpath(path.dirname(userFile)).catch(() => path.dirname(userFile));
    const imports: Imports = { top: userTop, shownFrom: userTop, skipped };
    const text = await inlineImports(user, userFile, imports, new Set([userFile]), 1);
    parts.push(`# ~/.geekagent/${PROJECT_INSTRUCTIONS_FILE}\n${text.trim()}`);
    files.push({ name: `~/.geekagent/${PROJECT_INSTRUCTIONS_FILE}`, bytes: Buffer.byteLength(text) });
  }
  const topReal = await realpath(top).catch(() => top);
  const imports: Imports = { top: topReal, shownFrom: topReal, skipped };
  for (const folder of foldersDown(top, cwd)) {
    for (const name of [PROJECT_INSTRUCTIONS_FILE, ...FALLBACK_INSTRUCTION_FILES]) {
      const file = path.join(folder, name);
      const shown = path.relative(top, file) || name;
      const read = await readProjectFile(file, topReal);
      if (read.kind === 'missing') continue;
      if (read.kind === 'refused') {
        skipped.push({ name: shown, reason: read.reason });
        parts.push(`# ${shown}\n${skipNotice(shown, read.reason)}`);
        break;
      }
      const text = (await inlineImports(read.text, read.real, imports, new Set([file, read.real]), 1)).trim();
      if (text !== '') {
        parts.push(`# ${shown}\n${text}`);
        files.push({ name: shown, bytes: Buffer.byteLength(text) });
      }
      break;
    }
  }
  if (parts.length === 0) return { text: undefined, files, skipped, bytes: 0, budget };
  const whole = parts.join('\n\n');
  const wholeBytes = Buffer.byteLength(whole);
  if (wholeBytes <= budget) return { text: whole, files, skipped, bytes: wholeBytes, budget };
  const cut = `${cutToBytes(whole, budget)}\n[… project instructions cut: ${wholeBytes} bytes, budget ${budget}]`;
  return { text: cut, files, skipped, bytes: Buffer.byteLength(cut), cutFrom: wholeBytes, budget };
}

/** Where imports must stay, how their names are shown, and the list refused ones are added to. */
interface Imports {
  top: string;
  shownFrom: string;
  skipped: SkippedInstruction[];
}

type ProjectRead =
  | { kind: 'missing' }
  | { kind: 'refused'; reason: string }
  | { kind: 'text'; text: string; real: string };

/** A project file or import: a regular file inside `top` (real path), not a secret file. */
async function readProjectFile(file: string, top: string): Promise<ProjectRead> {
  // Both names count: `notes.md -> .env` is the secret file under another name.
  if (isSecretBelow(file, top)) return { kind: 'refused', reason: SECRET_FILE_REASON };
  const read = await readInsideRoot(file, top, MAX_FILE_BYTES);
  if (read.kind !== 'text') return read;
  if (isSecretBelow(read.real, top)) return { kind: 'refused', reason: SECRET_FILE_REASON };
  return read;
}

/** Judged below `top` only: a project checked out under `~/.docker/` is not all secrets. */
function isSecretBelow(file: string, top: string): boolean {
  return isSecretFile(isInside(top, file) ? path.relative(top, file) : path.basename(file));
}

/** What the model reads in place of a skipped file: its name and why, never its content. */
function skipNotice(shown: string, reason: string): string {
  return `[skipped ${shown}: ${reason}; not read]`;
}

const IMPORT = /(^|\s)@((?:\.{1,2}\/|[\w-]+\/)?[\w./-]*[\w-])(?=$|\s)/g;

/**
 * Replaces each `@path` outside code fences with that file's text (imports of imports too, to
 * MAX_IMPORT_DEPTH). A missing path, a folder, or one already on the import chain is left as
 * written; one that exists but is refused (outside `top` after links, a secret, a special or
 * hard-linked file) is kept with a notice of why after it.
 */
async function inlineImports(
  text: string,
  file: string,
  imports: Imports,
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
      const token = `@${match[2]}`;
      const target = path.resolve(path.dirname(file), match[2]!);
      if (chain.has(target)) continue;
      const read = await readProjectFile(target, imports.top);
      if (read.kind === 'missing' || (read.kind === 'text' && chain.has(read.real))) continue;
      if (read.kind === 'refused') {
        const shown = path.relative(imports.shownFrom, target) || match[2]!;
        imports.skipped.push({ name: shown, reason: read.reason });
        replacements.push([token, `${token} ${skipNotice(shown, read.reason)}`]);
        continue;
      }
      const nested = await inlineImports(
        read.text,
        read.real,
        imports,
        new Set([...chain, read.real, target]),
        depth + 1,
      );
      replacements.push([token, nested.trim()]);
    }
    let replaced = line;
    for (const [token, content] of replacements) replaced = replaced.replace(token, () => content);
    lines[i] = replaced;
  }
  return lines.join('\n');
}

/** The person's own file (links followed: it is theirs), if it is a regular file. */
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

/** The longest prefix of `text` that is at most `bytes` UTF-8 bytes (never half a character). */
export function cutToBytes(text: string, bytes: number): string {
  const buffer = Buffer.from(text);
  if (buffer.length <= bytes) return text;
  let end = bytes;
  // Back off continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && (buffer[end]! & 0xc0) === 0x80) end--;
  return buffer.subarray(0, end).toString('utf8');
}
