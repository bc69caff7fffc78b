/**
 * One custom command file read: its frontmatter (Claude Code's fields: `description`,
 * `argument-hint`, `allowed-tools`, `model`) and its body, or the reason it cannot be used (with
 * its line). Reading never throws: a bad file becomes a command with an error status, listed by
 * `/commands`.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { FrontmatterError, type FrontValue, parseFrontmatter } from '../config/frontmatter.js';
import { errorMessage } from '../util/errors.js';
import { fromClaudeToolName } from '../util/tool-pattern.js';

/** A command file larger than this is refused (a prompt, not a document). */
export const MAX_COMMAND_BYTES = 64 * 1024;
const MAX_DESCRIPTION = 200;
/** One name segment: what a person can type after `/` (segments joined by `:`). */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export type CommandStatus =
  | { kind: 'ok' }
  | { kind: 'error'; message: string; line: number }
  /**
   * A project command in a folder that is not trusted, or (`changed`) one a reload found new or
   * changed since the person trusted the folder and they have not trusted it: listed, not loaded.
   */
  | { kind: 'untrusted'; changed?: boolean }
  /** Another command of that name came first (`by` is its file), or a built-in has the name. */
  | { kind: 'shadowed'; by: string };

export interface CustomCommand {
  name: string;
  source: 'project' | 'user';
  /** The plugin it comes from (plugins/): the person's installed plugin or a trusted project's. */
  plugin?: string;
  file: string;
  description: string;
  argumentHint?: string;
  /** Tool names or patterns pre-approved in the turn the person runs the command in. */
  allowedTools: string[];
  /** `allowed-tools` entries that grant nothing here (`Bash(git add:*)`: rules do not scope by argument). */
  ignoredTools: string[];
  /** A model for that turn only (a models.json name or a model id). */
  model?: string;
  body: string;
  status: CommandStatus;
}

/**
 * `allowed-tools`: a list, or one line split at commas outside parentheses (and at spaces between
 * plain names). `Bash(git status:*)` is Claude Code's argument scope: GeekAgent's rules name whole
 * tools, so a scoped entry is kept aside (never widened to the whole tool).
 */
export function readAllowedTools(value: FrontValue): { tools: string[]; ignored: string[] } | string {
  let items: string[];
  if (Array.isArray(value)) items = value;
  else if (typeof value === 'string') items = splitTopLevel(value);
  else return 'allowed-tools must be a list of tool names (or one line of them, comma-separated)';
  const tools: string[] = [];
  const ignored: string[] = [];
  for (const raw of items.map((item) => item.trim()).filter((item) => item !== '')) {
    if (raw.includes('(')) {
      ignored.push(raw);
      continue;
    }
    const name = fromClaudeToolName(raw);
    if (!/^[A-Za-z0-9_*:/.-]+$/.test(name)) return `allowed-tools: "${raw}" is not a tool name or pattern`;
    tools.push(name);
  }
  return { tools: [...new Set(tools)], ignored };
}

function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth++;
    if (char === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === ',' || /\s/.test(char))) {
      out.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  out.push(current);
  return out;
}

export function validName(name: string): boolean {
  return name !== '' && name.split(':').every((segment) => SEGMENT.test(segment));
}

/**
 * Reads `file` (`followLinks`: the person's own folders; a project's final link is refused) and
 * parses it; never throws.
 */

/** A command with nothing read yet, and how one that cannot be read is reported (`line` 1-based). */
export function commandStub(
  name: string,
  source: CustomCommand['source'],
  file: string,
): { base: CustomCommand; fail: (message: string, line?: number) => CustomCommand } {
  const base: CustomCommand = {
    name,
    source,
    file,
    description: '',
    allowedTools: [],
    ignoredTools: [],
    body: '',
    status: { kind: 'ok' },
  };
  return { base, fail: (message, line = 1) => ({ ...base, status: { kind: 'error', message, line } }) };
}

export async function readCommand(
  file: string,
  name: string,
  source: 'project' | 'user',
  followLinks: boolean,
): Promise<CustomCommand> {
  const { base, fail } = commandStub(name, source, file);
  if (!validName(name))
    return fail(
      `the name "${name}" cannot be typed as a command (letters, digits, _ . - in each folder and file name)`,
    );
  let text: string;
  try {
    text = await readSmallFile(file, followLinks);
  } catch (error) {
    return fail(errorMessage(error));
  }
  try {
    const front = parseFrontmatter(text);
    const field = (key: string): string | undefined | Error => {
      const value = front.fields[key];
      if (value === undefined) return undefined;
      if (typeof value !== 'string') return new Error(`${key} must be one line of text`);
      return value.trim() === '' ? undefined : value.trim();
    };
    const description = field('description');
    const hint = field('argument-hint');
    const model = field('model');
    for (const [key, value] of [
      ['description', description],
      ['argument-hint', hint],
      ['model', model],
    ] as const)
      if (value instanceof Error) return fail(value.message, front.lines[key] ?? 1);
    const body = front.body.trim();
    if (body === '')
      return fail('the command has no text (the Markdown after the frontmatter is its prompt)');
    let allowed = { tools: [] as string[], ignored: [] as string[] };
    const rawAllowed = front.fields['allowed-tools'];
    if (rawAllowed !== undefined) {
      const read = readAllowedTools(rawAllowed);
      if (typeof read === 'string') return fail(read, front.lines['allowed-tools'] ?? 1);
      allowed = read;
    }
    const firstLine = body.split('\n').find((line) => line.trim() !== '') ?? '';
    const shown = (description as string | undefined) ?? firstLine.replace(/^#+\s*/, '').trim();
    return {
      ...base,
      description: shown.length > MAX_DESCRIPTION ? `${shown.slice(0, MAX_DESCRIPTION - 1)}…` : shown,
      ...(hint ? { argumentHint: hint as string } : {}),
      ...(model ? { model: model as string } : {}),
      allowedTools: allowed.tools,
      ignoredTools: allowed.ignored,
      body,
    };
  } catch (error) {
    return fail(errorMessage(error), error instanceof FrontmatterError ? error.line : 1);
  }
}

/** A regular file of at most MAX_COMMAND_BYTES, opened without blocking (a FIFO cannot hang start-up). */
async function readSmallFile(file: string, followLinks: boolean): Promise<string> {
  const flags =
    constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (followLinks ? 0 : (constants.O_NOFOLLOW ?? 0));
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new Error('a symbolic link (a project command must be a file in its folder)');
    throw new Error(`cannot read the file (${code ?? errorMessage(error)})`);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new Error('not a regular file');
    if (stats.size > MAX_COMMAND_BYTES)
      throw new Error(`too large: ${stats.size} bytes (at most ${MAX_COMMAND_BYTES})`);
    const text = (await handle.readFile()).toString('utf8');
    if (text.includes('\0')) throw new Error('not a text file');
    return text;
  } finally {
    await handle.close();
  }
}
