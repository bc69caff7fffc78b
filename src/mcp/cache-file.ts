/**
 * The tool cache file's content checked by hand. A start with cached servers reads one file per
 * server before its first request; building zod schemas for them (the file, the era verdict, the
 * list hints) and parsing 20 files with them cost a start with 20 servers a few ms of CPU (bench row
 * 1b). These checks accept exactly what those schemas accepted and give what their parse gave
 * (objects rebuilt with their keys in the schema's order; the unit test keeps the schemas as the
 * reference), so a file written by an older or newer version reads the same.
 */
import type { Prompt } from '@modelcontextprotocol/client';
import { stringList } from '../util/string-list.js';
import type { ListedTool } from './catalog.js';
import type { DiscoverRecord, EraVerdict } from './era.js';
import type { ListHint } from './list-hints.js';

export const CACHE_VERSION = 1;

/** What the file holds, checked; `era` and `toolsHint` still raw (each is read on its own). */
export interface CacheFileContent {
  server: string;
  tools: ListedTool[];
  resources: boolean;
  prompts: Prompt[];
  era: unknown;
  toolsHint: unknown;
}

type Fields = Record<string, unknown>;

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** An optional string key: absent, undefined, or a string. */
function optionalString(fields: Fields, key: string): boolean {
  return !(key in fields) || fields[key] === undefined || typeof fields[key] === 'string';
}

/**
 * A loose object's copy as zod gives it: the shape's keys that are present, in the shape's order,
 * then every other key but `__proto__` (which assigning would turn into the copy's prototype).
 */
function looseCopy(fields: Fields, shape: readonly string[]): Fields {
  const copy: Fields = {};
  for (const key of shape) if (key in fields) copy[key] = fields[key];
  for (const key in fields) if (!shape.includes(key) && key !== '__proto__') copy[key] = fields[key];
  return copy;
}

const TOOL_SHAPE = ['name', 'title', 'description', 'inputSchema'] as const;

/**
 * Each item of a listed array (tools, prompts), copied as `looseCopy` does; undefined when any is
 * not an object with a string `name` that passes `check`.
 */
function namedItems<T>(
  value: unknown,
  shape: readonly string[],
  check: (item: Fields) => boolean,
): T[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items: T[] = [];
  for (const item of value as unknown[]) {
    if (!isObject(item) || typeof item.name !== 'string' || !check(item)) return undefined;
    items.push(looseCopy(item, shape) as T);
  }
  return items;
}

/** Each listed tool as the lenient tool schema reads it; undefined when any is malformed. */
const toolsOf = (value: unknown) =>
  namedItems<ListedTool>(
    value,
    TOOL_SHAPE,
    (tool) => optionalString(tool, 'title') && optionalString(tool, 'description'),
  );

const promptsOf = (value: unknown) => namedItems<Prompt>(value, ['name'], () => true);

/** The file's content, or undefined (another version's, or malformed). */
export function cacheFileContent(value: unknown): CacheFileContent | undefined {
  if (!isObject(value) || value.version !== CACHE_VERSION || typeof value.server !== 'string')
    return undefined;
  const tools = toolsOf(value.tools);
  if (!tools || typeof value.resources !== 'boolean') return undefined;
  const prompts = promptsOf(value.prompts);
  if (!prompts) return undefined;
  return {
    server: value.server,
    tools,
    resources: value.resources,
    prompts,
    era: value.era,
    toolsHint: value.toolsHint,
  };
}

/** The era verdict the file keeps, or undefined (none, or one this version cannot read). */
export function cachedEra(value: unknown): EraVerdict | undefined {
  if (!isObject(value)) return undefined;
  if (value.kind === 'modern') {
    if (typeof value.version !== 'string' || !isObject(value.discover)) return undefined;
    const supportedVersions = stringList(value.discover.supportedVersions);
    if (!supportedVersions) return undefined;
    const discover = looseCopy(value.discover, ['supportedVersions']);
    discover.supportedVersions = supportedVersions;
    return { kind: 'modern', version: value.version, discover: discover as DiscoverRecord };
  }
  if (value.kind !== 'legacy' || !optionalString(value, 'version') || !isNumber(value.checkedAt))
    return undefined;
  return 'version' in value
    ? { kind: 'legacy', version: value.version as string, checkedAt: value.checkedAt }
    : { kind: 'legacy', checkedAt: value.checkedAt };
}

/** The tool list's cache hints, or undefined (none, or unreadable: the list is simply not fresh). */
export function cachedHint(value: unknown): ListHint | undefined {
  if (!isObject(value) || !isNumber(value.ttlMs) || !isNumber(value.at)) return undefined;
  if (value.scope !== 'public' && value.scope !== 'private') return undefined;
  return { ttlMs: value.ttlMs, scope: value.scope, at: value.at };
}
