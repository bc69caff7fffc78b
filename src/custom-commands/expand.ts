/**
 * A command's body made into the turn's text: `$ARGUMENTS` and `$1`…`$9` replaced by what the
 * person typed after the name, `` !`command` `` replaced by that command's output, and each
 * `@path` whose file the reader includes appended as a file block. Only what the body itself
 * writes is run or included: a `!` or `@` inside the person's arguments stays text (an argument
 * used inside a `` !`…` `` or an `@$1` is part of that command or path). I/O is the caller's.
 */

export interface IncludeResult {
  kind: 'included' | 'missing' | 'refused';
  /** included: the file's text; refused: why (completes "@x not included: …"). */
  text?: string;
}

export interface ExpandIO {
  /** Reads `@path` (as written, relative to the project root). */
  include(relative: string): Promise<IncludeResult>;
  /** Runs a `` !`command` ``; its output, or an error that stops the command. */
  run(command: string): Promise<{ ok: true; output: string } | { ok: false; reason: string }>;
  /** A line for the person (an include refused). */
  note(message: string): void;
}

export type Expansion = { ok: true; text: string } | { ok: false; error: string };

/** Commands one file may run at most. */
export const MAX_SHELL_COMMANDS = 10;
/** Files one command may include at most, and their text together. */
export const MAX_INCLUDES = 20;
export const MAX_INCLUDE_CHARS = 256 * 1024;

/** `a "b c" d` → ['a', 'b c', 'd']: the shell's quoting, simply. */
export function splitArguments(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g))
    out.push(match[1] ?? match[2] ?? match[3] ?? '');
  return out;
}

/** Whether the body names its arguments itself (else they are appended). */
export function usesArguments(body: string): boolean {
  return /\$ARGUMENTS\b|\$[1-9](?![0-9])/.test(body);
}

/** `$ARGUMENTS` and `$1`…`$9` in `text` (a missing one is empty). */
export function substituteArguments(text: string, raw: string): string {
  const positional = splitArguments(raw);
  return text.replace(/\$ARGUMENTS\b|\$([1-9])(?![0-9])/g, (_match, index: string | undefined) =>
    index === undefined ? raw : (positional[Number(index) - 1] ?? ''),
  );
}

/** `` !`cmd` `` at the start or after white space. */
const SHELL = /(^|\s)!`([^`\n]+)`/g;
/** `@path` at the start or after white space or an opening bracket. */
const INCLUDE = /(^|[\s([{])@([^\s`'"()[\]{}<>]+)/g;

export async function expandCommand(body: string, rawArgs: string, io: ExpandIO): Promise<Expansion> {
  const args = rawArgs.trim();
  // The body's `!` commands run first, each once, in order; their output is inserted as text.
  const commands = [...body.matchAll(SHELL)];
  if (commands.length > MAX_SHELL_COMMANDS)
    return { ok: false, error: `it runs ${commands.length} !\`commands\` (at most ${MAX_SHELL_COMMANDS})` };
  const outputs: string[] = [];
  for (const match of commands) {
    const command = substituteArguments(match[2]!, args).trim();
    const result = await io.run(command);
    if (!result.ok) return { ok: false, error: `!\`${command}\` was not run: ${result.reason}` };
    outputs.push(result.output.replace(/\s+$/, ''));
  }
  // Split the body at its `!` commands; arguments and includes are read from the body's own text.
  const parts: string[] = [];
  const includes: string[] = [];
  let last = 0;
  let index = 0;
  for (const match of commands) {
    const start = match.index + match[1]!.length;
    parts.push(await expandText(body.slice(last, start), args, includes));
    parts.push(outputs[index++]!);
    last = start + match[0].length - match[1]!.length;
  }
  parts.push(await expandText(body.slice(last), args, includes));
  let text = parts.join('');
  if (args !== '' && !usesArguments(body)) text = `${text}\n\nARGUMENTS: ${args}`;
  const blocks = await readIncludes(includes, io);
  return { ok: true, text: blocks.length > 0 ? `${text}\n\n${blocks.join('\n\n')}` : text };
}

/** Arguments substituted; each `@path` the text names (with its arguments) noted for inclusion. */
async function expandText(text: string, args: string, includes: string[]): Promise<string> {
  for (const match of text.matchAll(INCLUDE)) {
    const written = substituteArguments(match[2]!, args).replace(/[.,;:!?]+$/, '');
    if (written !== '' && !includes.includes(written)) includes.push(written);
  }
  return substituteArguments(text, args);
}

async function readIncludes(paths: string[], io: ExpandIO): Promise<string[]> {
  const blocks: string[] = [];
  let total = 0;
  for (const relative of paths) {
    if (blocks.length >= MAX_INCLUDES) {
      io.note(`@${relative} not included: at most ${MAX_INCLUDES} files per command`);
      continue;
    }
    const result = await io.include(relative);
    if (result.kind === 'missing') continue;
    if (result.kind === 'refused') {
      io.note(`@${relative} not included: ${result.text ?? 'refused'}`);
      continue;
    }
    const content = result.text ?? '';
    if (total + content.length > MAX_INCLUDE_CHARS) {
      io.note(
        `@${relative} not included: the included files are over ${MAX_INCLUDE_CHARS} characters together`,
      );
      continue;
    }
    total += content.length;
    blocks.push(`<file path="${relative}">\n${content.replace(/\n$/, '')}\n</file>`);
  }
  return blocks;
}
