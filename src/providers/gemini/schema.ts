/**
 * Rewrites a tool's JSON Schema (what MCP servers send) into the OpenAPI-3 subset Gemini accepts
 * for a function's `parameters`: `$ref`s inlined (a recursive one cut at a depth, with a note),
 * `type: [x, 'null']` as `nullable`, `const` as a one-value enum, `oneOf`/`allOf` folded, enums
 * and formats Gemini rejects moved into the description, every other keyword dropped. Output
 * keys are a whitelist, so an unknown keyword can never reach the API. A schema that cannot be a
 * function's parameters (its top level is not an object) throws SchemaConversionError.
 */

type Json = Record<string, unknown>;

/** A schema Gemini cannot take as a function's parameters; the message says why. */
export class SchemaConversionError extends Error {
  override readonly name = 'SchemaConversionError';
}

/** Deeper than this, a subschema becomes a described "any" value (Gemini refuses very deep schemas). */
export const MAX_DEPTH = 16;
/** How often one `$ref` may be expanded inside itself before the recursion is cut. */
const MAX_REF_REPEATS = 2;
/** Longer enums go into the description instead (Gemini rejects schemas with too many states). */
export const MAX_ENUM = 256;
/** Subschemas one tool may expand to: `$ref`s that fan out can otherwise grow without bound. */
const MAX_NODES = 5_000;

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);
const FORMATS: Record<string, ReadonlySet<string>> = {
  string: new Set(['enum', 'date-time']),
  integer: new Set(['int32', 'int64']),
  number: new Set(['float', 'double']),
};
const NUMERIC_KEYS = ['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties'];

interface Context {
  root: Json;
  /** `$ref`s being expanded on the way down, for the recursion cut. */
  refs: string[];
  nodes: number;
}

/** The Gemini `parameters` for a tool's input schema. */
export function toGeminiParameters(schema: unknown): Json {
  if (!isObject(schema)) throw new SchemaConversionError('its input schema is not a JSON object');
  const context: Context = { root: schema, refs: [], nodes: 0 };
  const top = resolveTop(schema, context);
  const type = top.type;
  const objectLike =
    type === 'object' ||
    (Array.isArray(type) && type.includes('object')) ||
    (type === undefined && top.anyOf === undefined && top.oneOf === undefined);
  if (!objectLike) {
    throw new SchemaConversionError(
      `its input schema's top level is ${describeTop(top)}, and Gemini takes only an object of named parameters`,
    );
  }
  return convert({ ...top, type: 'object' }, context, 0);
}

/** The top level with `$ref` and `allOf` resolved (both common in generated schemas). */
function resolveTop(schema: Json, context: Context): Json {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 8; hops++) {
    const target = lookup(current.$ref, context.root);
    if (!target) throw new SchemaConversionError(`its top-level $ref ${current.$ref} does not resolve`);
    current = { ...target, ...withoutKey(current, '$ref') };
  }
  return Array.isArray(current.allOf) ? mergeAllOf(current) : current;
}

function convert(input: Json, context: Context, depth: number): Json {
  if (++context.nodes > MAX_NODES) {
    throw new SchemaConversionError(`its input schema expands to more than ${MAX_NODES} subschemas`);
  }
  if (depth > MAX_DEPTH) return anyValue(`(nested deeper than ${MAX_DEPTH} levels; not described further)`);
  let schema = input;
  if (typeof schema.$ref === 'string') {
    const ref = schema.$ref;
    const repeats = context.refs.filter((seen) => seen === ref).length;
    const target = lookup(ref, context.root);
    if (!target) return anyValue(joinText(text(schema.description), `(schema ${ref} is not available)`));
    if (repeats >= MAX_REF_REPEATS) {
      return cutRecursion(target, ref, text(schema.description));
    }
    context.refs.push(ref);
    try {
      return convert({ ...target, ...withoutKey(schema, '$ref') }, context, depth + 1);
    } finally {
      context.refs.pop();
    }
  }
  if (Array.isArray(schema.allOf)) schema = mergeAllOf(schema);

  const notes: string[] = [];
  let nullable = schema.nullable === true;
  const variants = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
      ? schema.oneOf
      : null;

  let type: string | undefined;
  let typeList: string[] = [];
  if (Array.isArray(schema.type)) {
    typeList = schema.type.filter((t): t is string => typeof t === 'string' && TYPES.has(t));
    if (schema.type.includes('null')) nullable = true;
    if (typeList.length === 1) type = typeList[0];
  } else if (typeof schema.type === 'string') {
    if (schema.type === 'null') return { ...anyValue('(always null)'), nullable: true };
    if (TYPES.has(schema.type)) type = schema.type;
  }

  // const and enum: Gemini's enum is strings only.
  let values: unknown[] | undefined;
  if ('const' in schema) values = [schema.const];
  else if (Array.isArray(schema.enum)) values = schema.enum;
  let enumOut: string[] | undefined;
  if (values) {
    if (values.includes(null)) nullable = true;
    const rest = values.filter((value) => value !== null);
    const strings = rest.every((value) => typeof value === 'string');
    if (strings && rest.length > 0 && rest.length <= MAX_ENUM && (type === undefined || type === 'string')) {
      enumOut = [...new Set(rest as string[])];
      type = 'string';
    } else if (rest.length > 0) {
      notes.push(describeValues(rest));
      type ??= inferTypeOfValues(rest);
    }
  }

  // Several types, or alternatives: anyOf (Gemini takes `type` or `anyOf`, not both).
  if (type === undefined && typeList.length > 1 && !enumOut) {
    const anyOf = typeList.map((member) =>
      convert({ ...withoutKeys(schema, ['type', 'description']), type: member }, context, depth + 1),
    );
    return finish({ anyOf }, schema, notes, nullable);
  }
  if (type === undefined && variants && !enumOut) {
    const members = variants.filter(isObject);
    const nonNull = members.filter(
      (member) =>
        member.type !== 'null' &&
        !(Array.isArray(member.enum) && member.enum.length === 1 && member.enum[0] === null),
    );
    if (nonNull.length < members.length) nullable = true;
    const base = withoutKeys(schema, ['anyOf', 'oneOf', 'description']);
    const converted = nonNull.map((member) => convert({ ...base, ...member }, context, depth + 1));
    if (converted.length === 1) {
      const only = converted[0] as Json;
      return finish(
        only,
        { description: joinText(text(schema.description), text(only.description)) },
        notes,
        nullable || only.nullable === true,
      );
    }
    if (converted.length > 1) return finish({ anyOf: converted }, schema, notes, nullable);
  }

  type ??= inferType(schema);
  if (type === undefined) return finish(anyValue(undefined), schema, notes, nullable);

  const out: Json = { type };
  if (enumOut) out.enum = enumOut;
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  if (format && FORMATS[type]?.has(format) && !(format === 'enum' && !enumOut)) out.format = format;
  else if (format) notes.push(`format: ${format}`);
  if (type === 'number' || type === 'integer') {
    for (const key of ['minimum', 'maximum'] as const) {
      if (typeof schema[key] === 'number') out[key] = schema[key];
    }
  }
  for (const key of NUMERIC_KEYS) {
    const value = schema[key];
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && appliesTo(key, type))
      out[key] = value;
  }
  if (type === 'array') {
    const items = Array.isArray(schema.items) ? schema.items[0] : schema.items;
    out.items = isObject(items) ? convert(items, context, depth + 1) : anyValue(undefined);
  }
  if (type === 'object') {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const converted: Json = {};
    for (const [name, value] of Object.entries(properties)) {
      converted[name] = isObject(value) ? convert(value, context, depth + 1) : anyValue(undefined);
    }
    if (Object.keys(converted).length > 0) out.properties = converted;
    const required = Array.isArray(schema.required)
      ? [
          ...new Set(
            schema.required.filter(
              (name): name is string => typeof name === 'string' && Object.hasOwn(converted, name),
            ),
          ),
        ]
      : [];
    if (required.length > 0) out.required = required;
  }
  return finish(out, schema, notes, nullable);
}

/** Adds the description (with what could not be said as schema) and `nullable`. */
function finish(out: Json, schema: Json, notes: string[], nullable: boolean): Json {
  const description = joinText(
    text(schema.description) ?? text(schema.title),
    notes.length > 0 ? `(${notes.join('; ')})` : undefined,
  );
  const result: Json = { ...out };
  if (description !== undefined) result.description = description;
  else delete result.description;
  if (nullable) result.nullable = true;
  return result;
}

/** Where a recursive `$ref` stops: its kind kept when it is simple, otherwise any object. */
function cutRecursion(target: Json, ref: string, description: string | undefined): Json {
  const name = ref.split('/').pop() ?? ref;
  const note = `(recursive ${name}: same shape as the enclosing ${name}, not expanded further)`;
  const kind = typeof target.type === 'string' && TYPES.has(target.type) ? target.type : 'object';
  const out: Json = { type: kind, description: joinText(description ?? text(target.description), note) };
  if (kind === 'array') out.items = anyValue(undefined);
  return out;
}

/** A value of any JSON type: Gemini needs a `type` or an `anyOf` on every schema. */
function anyValue(description: string | undefined): Json {
  const out: Json = {
    anyOf: [
      { type: 'string' },
      { type: 'number' },
      { type: 'boolean' },
      { type: 'object' },
      { type: 'array', items: { type: 'string' } },
    ],
  };
  if (description !== undefined) out.description = description;
  return out;
}

function inferType(schema: Json): string | undefined {
  if (isObject(schema.properties) || isObject(schema.additionalProperties) || 'required' in schema)
    return 'object';
  if ('items' in schema || 'minItems' in schema || 'maxItems' in schema) return 'array';
  if ('minimum' in schema || 'maximum' in schema) return 'number';
  if ('minLength' in schema || 'maxLength' in schema || 'pattern' in schema || 'format' in schema)
    return 'string';
  return undefined;
}

function inferTypeOfValues(values: unknown[]): string | undefined {
  const kinds = new Set(values.map((value) => (Number.isInteger(value) ? 'integer' : typeof value)));
  if (kinds.size !== 1) return undefined;
  const [kind] = kinds;
  return kind === 'integer' || kind === 'number' || kind === 'boolean' || kind === 'string'
    ? kind
    : undefined;
}

function describeValues(values: unknown[]): string {
  const shown = values.slice(0, 40).map((value) => JSON.stringify(value));
  const more = values.length > shown.length ? `, … (${values.length} values in all)` : '';
  return values.length === 1 ? `must be ${shown[0]}` : `one of ${shown.join(', ')}${more}`;
}

function appliesTo(key: string, type: string): boolean {
  if (key.endsWith('Items')) return type === 'array';
  if (key.endsWith('Length')) return type === 'string';
  return type === 'object';
}

/** allOf members folded into one schema: properties and required joined, the first type kept. */
function mergeAllOf(schema: Json): Json {
  const merged: Json = withoutKey(schema, 'allOf');
  const properties: Json = isObject(schema.properties) ? { ...schema.properties } : {};
  const required = new Set<unknown>(Array.isArray(schema.required) ? schema.required : []);
  for (const member of (schema.allOf as unknown[]).filter(isObject)) {
    if (isObject(member.properties)) Object.assign(properties, member.properties);
    if (Array.isArray(member.required)) for (const name of member.required) required.add(name);
    for (const [key, value] of Object.entries(member)) {
      if (key !== 'properties' && key !== 'required' && !(key in merged)) merged[key] = value;
    }
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

/** A local JSON pointer (`#/$defs/Node`, `#/definitions/x`, `#`); remote references are not fetched. */
function lookup(ref: string, root: Json): Json | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let current: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return isObject(current) ? current : undefined;
}

function describeTop(schema: Json): string {
  if (schema.anyOf !== undefined || schema.oneOf !== undefined)
    return 'a choice between schemas (anyOf/oneOf)';
  return `of type ${JSON.stringify(schema.type)}`;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function joinText(first: string | undefined, second: string | undefined): string | undefined {
  if (first === undefined) return second;
  return second === undefined ? first : `${first} ${second}`;
}

function withoutKey(schema: Json, key: string): Json {
  const { [key]: _dropped, ...rest } = schema;
  return rest;
}

function withoutKeys(schema: Json, keys: readonly string[]): Json {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !keys.includes(key)));
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
