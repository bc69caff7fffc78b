/**
 * Turns a server's `inputSchema` into one every provider takes as function parameters: an object
 * schema at the top, local `$ref`s inlined, top-level combinators merged. Never mutates its input.
 */
import type { JsonSchema } from '../tools/types.js';
import { MAX_SCHEMA_DEPTH, nestsDeeperThan } from '../util/schema-depth.js';

export type SchemaResult =
  | { ok: true; schema: JsonSchema; changes: string[] }
  | { ok: false; reason: string };

/** Keywords whose value maps names to subschemas: the names must not be read as keywords. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is data, not schema: a `$ref` inside a default is just text. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'required']);
/** Bounds the work on hostile schemas whose refs fan out exponentially. */
const MAX_REF_EXPANSIONS = 10_000;
const COMBINATORS = ['allOf', 'anyOf', 'oneOf'] as const;

type Combinator = (typeof COMBINATORS)[number];

export function normalizeToolSchema(inputSchema: unknown): SchemaResult {
  if (inputSchema === undefined || inputSchema === null) {
    return {
      ok: true,
      schema: { type: 'object', properties: {} },
      changes: ['no input schema: used an empty object'],
    };
  }
  if (!isPlainObject(inputSchema)) {
    return { ok: false, reason: `input schema must be a JSON object (got ${describeValue(inputSchema)})` };
  }
  // Checked before any recursive walk: a hostile depth would overflow the stack and lose the
  // server's whole listing, not just this tool.
  if (nestsDeeperThan(inputSchema)) {
    return { ok: false, reason: `input schema nests deeper than ${MAX_SCHEMA_DEPTH} levels` };
  }
  const changes: string[] = [];
  const inlined = inlineRefs(inputSchema, changes);
  if (!inlined.ok) return inlined;
  const { $schema, ...schema } = inlined.schema;
  if ($schema !== undefined) changes.push('removed $schema');
  const merged = mergeTopLevelCombinators(schema, changes);
  if (!merged.ok) return merged;
  return finishObject(merged.schema, changes);
}

function finishObject(input: JsonSchema, changes: string[]): SchemaResult {
  const schema: JsonSchema = { ...input };
  const type = schema.type;
  if (type === undefined) {
    schema.type = 'object';
    changes.push('added type "object"');
  } else if (
    Array.isArray(type) &&
    type.includes('object') &&
    type.every((t) => t === 'object' || t === 'null')
  ) {
    // Arguments are always an object; a nullable object loses nothing by dropping "null".
    schema.type = 'object';
    changes.push(`narrowed type ${JSON.stringify(type)} to "object"`);
  } else if (type !== 'object') {
    return { ok: false, reason: `input schema must describe an object (got type ${JSON.stringify(type)})` };
  }
  if (schema.properties === undefined) {
    schema.properties = {};
    changes.push('added empty properties');
  } else if (!isPlainObject(schema.properties)) {
    return {
      ok: false,
      reason: `input schema "properties" must be an object (got ${describeValue(schema.properties)})`,
    };
  }
  if (schema.required !== undefined && !isStringArray(schema.required)) {
    delete schema.required;
    changes.push('dropped a "required" that is not a list of names');
  }
  return { ok: true, schema: { type: schema.type, ...schema }, changes };
}

type Inlined = { ok: true; schema: JsonSchema } | { ok: false; reason: string };

/** Builds a copy with every `$ref` replaced by what it points at; `$defs`/`definitions` dropped. */
function inlineRefs(root: JsonSchema, changes: string[]): Inlined {
  let expansions = 0;
  const noted = new Set<string>();
  const note = (message: string) => {
    if (!noted.has(message)) changes.push(message);
    noted.add(message);
  };

  const walkSchema = (node: unknown, stack: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => walkSchema(item, stack));
    if (!isPlainObject(node)) return node;
    const out: JsonSchema = {};
    // Own keys in Object.entries' order, without its arrays: every tool's schema walks here at start.
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      if (key === '$ref') continue;
      if (key === '$defs' || key === 'definitions') continue;
      const value = node[key];
      if (DATA_KEYWORDS.has(key)) out[key] = copyData(value);
      else if (SCHEMA_MAPS.has(key) && isPlainObject(value)) {
        const map: Record<string, unknown> = {};
        for (const name in value) {
          if (!Object.hasOwn(value, name)) continue;
          // As Object.fromEntries: a property named __proto__ is a property, not the prototype.
          if (name === '__proto__')
            Object.defineProperty(map, name, {
              value: walkSchema(value[name], stack),
              writable: true,
              enumerable: true,
              configurable: true,
            });
          else map[name] = walkSchema(value[name], stack);
        }
        out[key] = map;
      } else out[key] = walkSchema(value, stack);
    }
    const ref = node.$ref;
    if (typeof ref !== 'string') return out;
    if (stack.includes(ref)) {
      note(`cyclic $ref "${ref}" replaced by {}`);
      return out;
    }
    const target = ref.startsWith('#') ? resolvePointer(root, ref.slice(1)) : undefined;
    if (target === undefined) {
      // An unresolved $ref makes some providers reject the whole request, not just this tool.
      note(`unresolvable $ref "${ref}" replaced by {}`);
      return out;
    }
    expansions++;
    if (expansions > MAX_REF_EXPANSIONS) throw new TooLarge();
    note(`inlined $ref "${ref}"`);
    const resolved = walkSchema(target, [...stack, ref]);
    // Keywords beside the $ref (often a description) refine the target, so they win.
    return isPlainObject(resolved) ? { ...resolved, ...out } : out;
  };

  try {
    const hadDefinitions = root.$defs !== undefined || root.definitions !== undefined;
    const schema = walkSchema(root, ['#']) as JsonSchema;
    if (hadDefinitions) changes.push('dropped $defs/definitions');
    return { ok: true, schema };
  } catch (error) {
    if (error instanceof TooLarge) {
      return { ok: false, reason: `input schema expands past ${MAX_REF_EXPANSIONS} $refs` };
    }
    throw error;
  }
}

class TooLarge extends Error {}

/**
 * structuredClone's copy of a data keyword's value; a list of strings or numbers (`required`, most
 * `enum`s) and any primitive copied directly (structuredClone costs ~5 us a call).
 */
function copyData(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
    if (value === null || value === undefined) return value;
    return structuredClone(value);
  }
  if (
    Object.getPrototypeOf(value) !== Array.prototype ||
    Object.keys(value).length !== (value as unknown[]).length
  )
    return structuredClone(value);
  const list = value as unknown[];
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    if (typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'boolean' && item !== null)
      return structuredClone(value);
  }
  return list.slice();
}

/** RFC 6901 pointer (after the `#`), with URI percent-decoding as `$ref`s carry it. */
function resolvePointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isPlainObject(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

type Merged = { ok: true; schema: JsonSchema } | { ok: false; reason: string };

/** Providers refuse combinators at the top: fold them into a single object schema. */
function mergeTopLevelCombinators(input: JsonSchema, changes: string[]): Merged {
  let schema = input;
  for (const keyword of COMBINATORS) {
    const members = schema[keyword];
    if (members === undefined) continue;
    if (!Array.isArray(members) || members.length === 0) {
      return { ok: false, reason: `input schema's top-level ${keyword} is not a list of schemas` };
    }
    const flattened: JsonSchema[] = [];
    for (const member of members) {
      if (!isPlainObject(member) || (member.type !== undefined && member.type !== 'object')) {
        return {
          ok: false,
          reason: `input schema's top-level ${keyword} has a non-object alternative (${describeMember(member)}), which cannot be represented`,
        };
      }
      const inner = mergeTopLevelCombinators(member, []);
      if (!inner.ok) return inner;
      flattened.push(inner.schema);
    }
    const { [keyword]: _dropped, ...rest } = schema;
    schema = combine(rest, flattened, keyword);
    changes.push(`merged top-level ${keyword} of ${members.length} schemas into one object`);
  }
  return { ok: true, schema };
}

function combine(base: JsonSchema, members: readonly JsonSchema[], keyword: Combinator): JsonSchema {
  const properties: Record<string, unknown> = { ...(isPlainObject(base.properties) ? base.properties : {}) };
  const variants = new Map<string, unknown[]>();
  for (const member of members) {
    if (!isPlainObject(member.properties)) continue;
    for (const [name, sub] of Object.entries(member.properties)) {
      const seen = variants.get(name) ?? [];
      if (!seen.some((other) => JSON.stringify(other) === JSON.stringify(sub))) seen.push(sub);
      variants.set(name, seen);
    }
  }
  for (const [name, seen] of variants) {
    if (Object.hasOwn(properties, name)) continue;
    // One property typed differently by the alternatives keeps every variant, nested (allowed there).
    properties[name] = seen.length === 1 ? seen[0] : { [keyword === 'allOf' ? 'allOf' : 'anyOf']: seen };
  }

  const memberRequired = members.map((member) => (isStringArray(member.required) ? member.required : []));
  const fromMembers =
    keyword === 'allOf'
      ? [...new Set(memberRequired.flat())]
      : (memberRequired[0] ?? []).filter((name) => memberRequired.every((list) => list.includes(name)));
  const required = [...new Set([...(isStringArray(base.required) ? base.required : []), ...fromMembers])];

  const result: JsonSchema = { ...base, type: 'object', properties };
  if (required.length > 0) result.required = required;
  else delete result.required;
  if (
    base.additionalProperties === undefined &&
    members.every((member) => member.additionalProperties === false)
  ) {
    result.additionalProperties = false;
  }
  return result;
}

function describeMember(member: unknown): string {
  return isPlainObject(member) ? `type ${JSON.stringify(member.type)}` : describeValue(member);
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
