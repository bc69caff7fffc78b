/**
 * The usual mcp.json entry checked without zod. Building the entry schemas (config-schema.ts) costs
 * a start with servers ~3-4 ms before its first request (bench row 1b), and nearly every entry is a
 * plain stdio one: a command, its args, maybe env, cwd and a few settings. Such an entry, with every
 * key known and every value plainly valid, gets here exactly what the schema's parse returns (its
 * keys in the schema's order, arrays and records copied). Anything else (a remote entry, a sandbox
 * object, an unknown key, a bad value, anything unusual) gets undefined and goes to the schemas,
 * which also write every message: this only ever accepts what they accept.
 */

import { stringList } from '../util/string-list.js';

/** Node's timers take at most 2^31-1 ms; a bigger delay silently fires after 1 ms. */
export const MAX_TIMEOUT_MS = 2_147_483_647;
/** About 400 MB of text: anything bigger is a typo, not a budget. */
export const MAX_RESULT_TOKENS = 100_000_000;

/** Not plainly valid: leave the entry to the schema. */
const DOUBT = Symbol('doubt');
type Value = (value: unknown) => unknown;

const int =
  (max: number): Value =>
  (value) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max ? value : DOUBT;
const boolean: Value = (value) => (typeof value === 'boolean' ? value : DOUBT);
const string: Value = (value) => (typeof value === 'string' ? value : DOUBT);

const strings: Value = (value) => stringList(value) ?? DOUBT;

/** A JSON object of strings; zod's record drops a `__proto__` key silently, so that is left to it. */
function stringRecord(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype)
    return DOUBT;
  const copy: Record<string, string> = {};
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key !== 'string' || key === '__proto__') return DOUBT;
    if (!Object.prototype.propertyIsEnumerable.call(value, key)) return DOUBT;
    const item: unknown = (value as Record<string, unknown>)[key];
    if (typeof item !== 'string') return DOUBT;
    copy[key] = item;
  }
  return copy;
}

/** The stdio schema's keys, in its order (the order of the parsed object's keys). */
const STDIO: ReadonlyArray<readonly [string, Value]> = [
  ['type', (value) => (value === 'stdio' ? value : DOUBT)],
  ['command', (value) => (typeof value === 'string' && value.length >= 1 ? value : DOUBT)],
  ['args', strings],
  ['env', stringRecord],
  ['cwd', string],
  // true or false; an object (more room) is the schema's.
  ['sandbox', boolean],
  ['timeout', int(MAX_TIMEOUT_MS)],
  ['startupTimeout', int(MAX_TIMEOUT_MS)],
  ['disabled', boolean],
  ['roots', boolean],
  ['startup', (value) => (value === 'lazy' || value === 'eager' ? value : DOUBT)],
  ['includeTools', strings],
  ['excludeTools', strings],
  ['maxResultTokens', int(MAX_RESULT_TOKENS)],
];
const STDIO_KEYS = new Set(STDIO.map(([key]) => key));

/**
 * The parsed stdio entry (what the schema would return), or undefined: let the schema decide.
 * `entry` is an own-keys object (comment keys already dropped).
 */
export function plainStdioEntry(entry: Record<string, unknown>): Record<string, unknown> | undefined {
  if (Object.getPrototypeOf(entry) !== Object.prototype || !Object.hasOwn(entry, 'command')) return undefined;
  for (const key of Object.keys(entry)) if (!STDIO_KEYS.has(key)) return undefined;
  const parsed: Record<string, unknown> = {};
  for (const [key, check] of STDIO) {
    if (!Object.hasOwn(entry, key)) continue;
    const value = check(entry[key]);
    if (value === DOUBT) return undefined;
    parsed[key] = value;
  }
  return parsed;
}
