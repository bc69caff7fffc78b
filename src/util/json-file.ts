/**
 * Reading and writing the agent's JSON config files, with errors a person can act on: the file,
 * the line and column of a syntax error, or the JSON path of a value that fails its schema.
 */
import { constants } from 'node:fs';
import type { ParseError } from 'jsonc-parser';
import { closeFd, openFd, readWholeFd, statFd } from './fd.js';
import { writeFileAtomic } from './safe-write.js';
import type * as z from './schema.js';

/** What a failed parse reports (a zod error, or issues rewritten from one). */
export interface SchemaError {
  issues: readonly z.core.$ZodIssue[];
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(message);
  }
}

export type JsonFileRead = { kind: 'missing' } | { kind: 'ok'; value: unknown };

export async function readJsonFile(file: string): Promise<JsonFileRead> {
  let text: string;
  try {
    text = await readRegularFile(file);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    throw new ConfigError(`cannot read ${file}: ${(error as Error).message}`, file);
  }
  return { kind: 'ok', value: await parseJsonText(text, file) };
}

/**
 * Opened without blocking and checked: a FIFO planted as a config file must not hang the start.
 * By descriptor (util/fd.ts): config files are read at every start.
 */
async function readRegularFile(file: string): Promise<string> {
  const fd = await openFd(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    if (!(await statFd(fd)).isFile())
      throw new ConfigError(`cannot read ${file}: it is not a regular file`, file);
    return (await readWholeFd(fd)).toString('utf8');
  } finally {
    await closeFd(fd);
  }
}

export async function parseJsonText(raw: string, file: string): Promise<unknown> {
  // Editors on Windows save UTF-8 with a byte order mark; JSON.parse rejects it.
  const text = raw.startsWith('\uFEFF') ? raw.slice(1) : raw;
  try {
    return JSON.parse(text);
  } catch {
    // V8's messages carry no position on Node 20 for many errors (and quote the file, secrets
    // included): locate the first error with a real JSON scanner instead. Loaded only here:
    // config files are read at every start, and almost always parse.
    const { parseTree, printParseErrorCode } = await import('jsonc-parser');
    const errors: ParseError[] = [];
    parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    const offset = first?.offset ?? text.length;
    const reason = first ? describeParseError(printParseErrorCode(first.error)) : 'not valid JSON';
    const { line, column } = lineAndColumn(text, offset);
    throw new ConfigError(`${file}: invalid JSON at line ${line}, column ${column}: ${reason}`, file);
  }
}

/** `CommaExpected` (jsonc-parser's name for a ParseErrorCode) → `comma expected`. */
function describeParseError(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return { line, column };
}

/** `tools.run_shell` / `mcpServers.demo.args[0]` — the JSON path of a schema issue. */
export function jsonPath(pathParts: readonly PropertyKey[]): string {
  let out = '';
  for (const part of pathParts) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(top level)' : out;
}

/** One line per issue: `<file>: at <json path>: <message>`. */
export function describeSchemaError(
  file: string,
  error: SchemaError,
  prefix: readonly PropertyKey[] = [],
): string {
  return error.issues
    .map((issue) => `${file}: at ${jsonPath([...prefix, ...issue.path])}: ${issue.message}`)
    .join('\n');
}

/** Writes via a temporary file and rename (never through a symlink), so a crash never leaves half a file. */
export async function writeJsonFileAtomic(file: string, value: unknown): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}
