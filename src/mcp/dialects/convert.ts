/**
 * Shared conversion helpers: a typed reader over one foreign server entry (remembering which keys
 * were used, so the rest can be reported as left out), the variable-syntax translations, and the
 * final check of a converted entry against our own schema.
 */
import path from 'node:path';
import { checkServerEntry, typeName } from '../config-schema.js';
import type { ConvertedServer, DialectContext, UnconvertibleServer } from './types.js';

/** Thrown while converting one entry; becomes that entry's "cannot convert" reason. */
export class CannotConvert extends Error {}

/** Rewrites one string value from the dialect's variable syntax to ours (`${VAR}`). */
export type Translate = (value: string, field: string) => string;

export const keepAsIs: Translate = (value) => value;

export class EntryReader {
  private readonly used = new Set<string>();
  readonly leftOut: string[] = [];

  constructor(
    readonly raw: Record<string, unknown>,
    private readonly translate: Translate,
  ) {}

  has(key: string): boolean {
    return this.raw[key] !== undefined;
  }

  string(key: string): string | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'string')
      throw new CannotConvert(`${key}: expected a string, got ${typeName(value)}`);
    return this.translate(value, key);
  }

  strings(key: string): string[] | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
      throw new CannotConvert(`${key}: expected an array of strings`);
    return value.map((item: string, index) => this.translate(item, `${key}[${index}]`));
  }

  /** Values that are numbers or booleans are written as text, as an environment would hold them. */
  record(key: string): Record<string, string> | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (!isObject(value)) throw new CannotConvert(`${key}: expected an object, got ${typeName(value)}`);
    const out: Record<string, string> = {};
    for (const [name, item] of Object.entries(value)) {
      if (typeof item === 'number' || typeof item === 'boolean') out[name] = String(item);
      else if (typeof item === 'string') out[name] = this.translate(item, `${key}.${name}`);
      else throw new CannotConvert(`${key}.${name}: expected a string, got ${typeName(item)}`);
    }
    return out;
  }

  number(key: string): number | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
      throw new CannotConvert(`${key}: expected a positive number, got ${JSON.stringify(value)}`);
    return value;
  }

  boolean(key: string): boolean | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean')
      throw new CannotConvert(`${key}: expected true or false, got ${typeName(value)}`);
    return value;
  }

  object(key: string): Record<string, unknown> | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (!isObject(value)) throw new CannotConvert(`${key}: expected an object, got ${typeName(value)}`);
    return value;
  }

  /** A known key with no GeekAgent equivalent: reported, not converted. */
  leaveOut(key: string, why: string): void {
    if (this.take(key) !== undefined) this.leftOut.push(`${key} (${why})`);
  }

  /** Keys nobody read: reported as left out. */
  rest(): void {
    for (const key of Object.keys(this.raw)) {
      if (!this.used.has(key) && this.raw[key] !== undefined)
        this.leftOut.push(`${key} (not a GeekAgent setting)`);
    }
  }

  private take(key: string): unknown {
    this.used.add(key);
    return this.raw[key];
  }
}

/**
 * Runs one dialect's conversion of one entry and checks the result against our schema: a converted
 * server, or why not.
 */
export function convertServer(
  name: string,
  raw: unknown,
  translate: Translate,
  convert: (reader: EntryReader, name: string) => Record<string, unknown>,
): { ok: true; server: ConvertedServer } | { ok: false; server: UnconvertibleServer } {
  const fail = (reason: string) => ({ ok: false as const, server: { name, reason } });
  if (!isObject(raw)) return fail(`expected an object, got ${typeName(raw)}`);
  const reader = new EntryReader(raw, translate);
  let entry: Record<string, unknown>;
  try {
    entry = withoutUndefined(convert(reader, name));
  } catch (error) {
    if (error instanceof CannotConvert) return fail(error.message);
    throw error;
  }
  reader.rest();
  const check = checkServerEntry('converted entry', name, entry);
  if (!check.ok)
    return fail(check.error.replace(/^converted entry: /, '').replace(/\nconverted entry: /g, '; '));
  return { ok: true, server: { name, entry, leftOut: reader.leftOut } };
}

/** The usual `command`/`args`/`env`/`cwd` or `url`/`headers` pair, `type` inferred when absent. */
export function stdioOrRemote(reader: EntryReader, remoteType: 'http' | 'sse'): Record<string, unknown> {
  const type = reader.string('type');
  if (type !== undefined && !['stdio', 'http', 'sse', 'streamable-http', 'streamableHttp'].includes(type))
    throw new CannotConvert(
      `type: ${JSON.stringify(type)} is not a transport GeekAgent knows (stdio, http, sse)`,
    );
  const command = reader.string('command');
  if (type === 'stdio' || (type === undefined && command !== undefined)) {
    if (command === undefined) throw new CannotConvert('a stdio server needs "command"');
    return {
      command,
      args: nonEmpty(reader.strings('args')),
      env: nonEmptyRecord(reader.record('env')),
      cwd: reader.string('cwd'),
    };
  }
  const url = reader.string('url');
  if (url === undefined) throw new CannotConvert('neither "command" nor "url" is given');
  return {
    type: type === 'sse' ? 'sse' : type === undefined ? remoteType : 'http',
    url,
    headers: nonEmptyRecord(reader.record('headers')),
  };
}

export function nonEmpty<T>(list: T[] | undefined): T[] | undefined {
  return list && list.length > 0 ? list : undefined;
}

export function nonEmptyRecord(
  record: Record<string, string> | undefined,
): Record<string, string> | undefined {
  return record && Object.keys(record).length > 0 ? record : undefined;
}

export function withoutUndefined(entry: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined));
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * VS Code's and Cursor's `${…}` variables: `${env:X}` becomes our `${X}`, folder and home
 * variables their paths; `${input:…}` (asked by VS Code at start) and anything else cannot be
 * converted.
 */
export function editorVariables(context: DialectContext): Translate {
  return (value, field) =>
    value.replace(/\$\{([^}]*)\}/g, (whole, inner: string) => {
      if (inner.startsWith('env:')) return `\${${inner.slice(4)}}`;
      if (inner === 'workspaceFolder' || inner === 'workspaceRoot') return context.projectDir;
      if (inner === 'workspaceFolderBasename') return path.basename(context.projectDir);
      if (inner === 'userHome') return context.homeDir;
      if (inner === 'pathSeparator' || inner === '/') return path.sep;
      if (inner.startsWith('input:'))
        throw new CannotConvert(
          `${field} uses ${whole}, a value VS Code asks for at start; put it in an environment variable and use \${NAME} (geekagent mcp add-json)`,
        );
      if (/^[A-Za-z_][A-Za-z0-9_]*(:-.*)?$/.test(inner)) return whole;
      throw new CannotConvert(`${field} uses ${whole}, a variable GeekAgent cannot resolve`);
    });
}

/** Gemini CLI expands `$VAR` and `${VAR}` in every settings string; ours is `${VAR}` only. */
export const geminiVariables: Translate = (value) =>
  value.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (_whole, name: string) => `\${${name}}`);
