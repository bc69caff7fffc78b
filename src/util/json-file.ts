/**
 * Reading and writing the agent's JSON config files, with errors a person can act on: the file,
 * the line and column of a syntax error, or the JSON path of a value that fails its schema.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';

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
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    throw new ConfigError(`cannot read ${file}: ${(error as Error).message}`, file);
  }
  return { kind: 'ok', value: parseJsonText(text, file) };
}

export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    // V8 (Node 20) reports "... at position N" or nothing (unexpected end): turn it into line/column.
    const match = /at position (\d+)/.exec(message);
    const offset = match ? Number(match[1]) : text.length;
    const { line, column } = lineAndColumn(text, offset);
    const reason = message.replace(/ in JSON at position \d+.*$/, '').replace(/ of JSON input$/, '');
    throw new ConfigError(`${file}: invalid JSON at line ${line}, column ${column}: ${reason}`, file);
  }
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
export function describeSchemaError(file: string, error: z.ZodError, prefix: readonly PropertyKey[] = []): string {
  return error.issues
    .map((issue) => `${file}: at ${jsonPath([...prefix, ...issue.path])}: ${issue.message}`)
    .join('\n');
}

/** Writes via a temporary file and rename, so a crash never leaves half a file. */
export async function writeJsonFileAtomic(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`, 'utf8');
  await rename(temporary, file);
}
