/**
 * Reusing a wrapped command line (bench row Z1): building the bubblewrap line costs tens of
 * milliseconds (the library's ripgrep scan, a stat of every path), and for the same policy and
 * the same files it is the same line. So the library wraps a fixed command that runs the real
 * one from an environment variable, and that line is used again while nothing it was built from
 * changed:
 * - the key: the filesystem lists — with what the dangerous-file scan (dangerous.ts, made again
 *   for every command: a new nested `.git` or rc file) adds —, the hosts, the process's cwd and
 *   environment (the library reads PATH, TMPDIR, JAVA_TOOL_OPTIONS…);
 * - what each listed path and every folder above it is (absent, a file, a folder, a link, which
 *   inode): the library binds what exists and blocks what does not, and resolves links.
 * Folder times are not used: the mount points each run creates and removes change them. Anything the
 * line names that the library's per-command cleanup removes is put back before it runs and
 * removed after: the mount points bubblewrap creates for absent denied paths, and the empty
 * folder bound over absent denied folders (made anew with mkdir, which fails if anything took its
 * name). A line whose mounts go through a file descriptor (a very long profile) is never reused.
 */
import { lstatSync, mkdirSync, rmdirSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The variable the fixed command reads the command line from; unexported before it runs. */
export const COMMAND_VARIABLE = 'GEEKAGENT_SANDBOXED_COMMAND';

/** What the library wraps instead of the command (its shell is bash). */
export function fixedCommand(prelude: string): string {
  return `export -n ${COMMAND_VARIABLE}\n${prelude}eval "$${COMMAND_VARIABLE}"`;
}

/** The line that runs `commandLine` through a line wrapped around `fixedCommand`. */
export function withCommand(line: string, commandLine: string): string {
  return `${COMMAND_VARIABLE}=${shellQuote(commandLine)} ${line}`;
}

/**
 * The shell bubblewrap starts only execs the seccomp helper (which starts bash for the command):
 * dash does that in half of bash's start-up (bench Z1). Rewritten word by word, so nothing but
 * that one word changes; a line of any other shape is returned as it is.
 */
export function withPosixOuterShell(line: string, sh = '/bin/sh'): string {
  const words = shellWords(line);
  if (!words || words[0] === '/bin/sh' || !exists(sh)) return line;
  const separator = words.indexOf('--');
  if (separator < 0 || separator + 4 !== words.length) return line;
  if (!/\/bash$/.test(words[separator + 1] as string) || words[separator + 2] !== '-c') return line;
  words[separator + 1] = sh;
  return words.map(libraryQuote).join(' ');
}

/** What each path the line was built from is, with every folder above it. */
export type Snapshot = Array<[string, string]>;

export function snapshot(named: readonly string[]): Snapshot {
  const entries: Snapshot = [];
  const seen = new Set<string>();
  for (const name of named) {
    for (let p = path.resolve(name); !seen.has(p); p = path.dirname(p)) {
      seen.add(p);
      entries.push([p, identity(p)]);
      if (p === path.dirname(p)) break;
    }
  }
  return entries;
}

export function unchanged(before: Snapshot): boolean {
  return before.every(([p, value]) => identity(p) === value);
}

function identity(p: string): string {
  try {
    const stat = lstatSync(p);
    const kind = stat.isDirectory() ? 'd' : stat.isSymbolicLink() ? 'l' : stat.isFile() ? 'f' : 'o';
    // A file's size and mode: an empty read-only file is a mount point the library re-covers.
    return kind === 'f'
      ? `f:${stat.dev}:${stat.ino}:${stat.mode}:${stat.size}:${stat.nlink}`
      : `${kind}:${stat.dev}:${stat.ino}:${stat.mode}`;
  } catch {
    return '-';
  }
}

/** What a wrapped line creates on the host when it runs, and the library removes after. */
export interface LineMounts {
  /** Absent denied paths bound read-only: bubblewrap creates each as a mount point. */
  placeholders: string[];
  /** The library's private empty folders the line binds from. */
  emptySources: string[];
}

/**
 * The mounts of `line`, or undefined when it cannot be reused: its mounts are read from a file
 * descriptor (closed by the cleanup; the number may then name another file), or it is not the
 * shape the library renders (single-quoted or bare words).
 */
export function lineMounts(line: string): LineMounts | undefined {
  const words = shellWords(line);
  if (!words || words.includes('--args') || words[0] === '/bin/sh') return undefined;
  const emptyPrefix = path.join(os.tmpdir(), 'claude-empty-');
  const placeholders: string[] = [];
  const emptySources = new Set<string>();
  for (let i = 0; i + 2 < words.length; i++) {
    if (words[i] !== '--ro-bind') continue;
    const source = words[i + 1] as string;
    const dest = words[i + 2] as string;
    const empty = source.startsWith(emptyPrefix);
    if (empty) emptySources.add(source);
    if ((source === '/dev/null' || empty) && !exists(dest)) placeholders.push(dest);
  }
  return { placeholders, emptySources: [...emptySources] };
}

/**
 * Before a reused line runs: each empty source made again, private and empty (mkdir fails if the
 * name was taken), and no mount point left over. False: do not reuse (what was made is removed).
 */
export function prepareMounts(mounts: LineMounts): boolean {
  if (mounts.placeholders.some(exists)) return false;
  const made: string[] = [];
  for (const dir of mounts.emptySources) {
    try {
      mkdirSync(dir, { mode: 0o700 });
      made.push(dir);
    } catch {
      for (const done of made) removeEmptyDir(done);
      return false;
    }
  }
  return true;
}

/**
 * After the lines ran (and nothing else runs): what bubblewrap made for them, deepest first (one
 * line's mount point folder may hold another's), then the empty sources.
 */
export function removeMounts(lines: readonly LineMounts[]): void {
  const placeholders = [...new Set(lines.flatMap((mounts) => mounts.placeholders))];
  placeholders.sort((a, b) => b.length - a.length);
  for (const p of placeholders) {
    try {
      const stat = lstatSync(p);
      // Only what bubblewrap made: an empty file without write bits, or an empty folder.
      if (stat.isFile() && stat.size === 0 && (stat.mode & 0o222) === 0 && stat.nlink === 1) unlinkSync(p);
      else if (stat.isDirectory()) removeEmptyDir(p);
    } catch {
      // Gone already.
    }
  }
  for (const mounts of lines) for (const dir of mounts.emptySources) removeEmptyDir(dir);
}

/** The library's cleanup ran after a fresh line: true if it left none of the line's mounts. */
export function mountsGone(mounts: LineMounts): boolean {
  return !mounts.placeholders.some(exists) && !mounts.emptySources.some(exists);
}

function removeEmptyDir(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Not empty, or gone: left as found.
  }
}

export function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * The words of a line the library rendered (its quote(): bare words and single-quoted runs, a
 * quote written as "'"), or undefined for anything else.
 */
export function shellWords(line: string): string[] | undefined {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === ' ') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return undefined;
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      if (line.slice(i, i + 3) !== `"'"`) return undefined;
      word += "'";
      inWord = true;
      i += 2;
    } else if (/[A-Za-z0-9_./:=@+,-]/.test(c)) {
      word += c;
      inWord = true;
    } else return undefined;
  }
  if (inWord) words.push(word);
  return words;
}

/** Single-quoted as the library's quote() writes a quote inside a word ("'"): what shellWords reads. */
function libraryQuote(text: string): string {
  return `'${text.replaceAll("'", `'"'"'`)}'`;
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
