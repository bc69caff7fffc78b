/**
 * Reading an `mcpServers`-style object (name → entry), the shape Claude Code, Claude Desktop,
 * Cursor and Gemini CLI share, and the JSON-with-comments text their files may be.
 */
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';
import { typeName } from '../config-schema.js';
import { convertServer, type EntryReader, isObject, type Translate } from './convert.js';
import type { DialectName, SourceLocation, SourceRead } from './types.js';

export function readServersMap(
  dialect: DialectName,
  location: SourceLocation,
  servers: unknown,
  translate: Translate,
  convert: (reader: EntryReader, name: string) => Record<string, unknown>,
): SourceRead | undefined {
  if (servers === undefined) return undefined;
  const where = location.part ?? 'mcpServers';
  if (!isObject(servers))
    throw new Error(`${where}: expected an object of servers by name, got ${typeName(servers)}`);
  const read: SourceRead = { dialect, location, servers: [], unconvertible: [] };
  for (const [name, raw] of Object.entries(servers)) {
    const result = convertServer(name, raw, translate, convert);
    if (result.ok) read.servers.push(result.server);
    else read.unconvertible.push(result.server);
  }
  // An empty map is no source worth listing.
  return read.servers.length + read.unconvertible.length > 0 ? read : undefined;
}

/** JSON with comments and trailing commas (VS Code, Cursor and Gemini CLI accept both). */
export function parseJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const value = parse(text.startsWith('\uFEFF') ? text.slice(1) : text, errors, {
    allowTrailingComma: true,
    disallowComments: false,
  });
  const first = errors[0];
  if (first) {
    const line = text.slice(0, first.offset).split('\n').length;
    throw new Error(`invalid JSON at line ${line}: ${printParseErrorCode(first.error)}`);
  }
  return value;
}

/** The top level of a settings file, which must be an object. */
export function documentOf(text: string): Record<string, unknown> {
  const value = parseJsonc(text);
  if (!isObject(value)) throw new Error(`expected a JSON object, got ${typeName(value)}`);
  return value;
}
