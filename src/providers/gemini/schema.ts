/**
 * Rewrites a tool's JSON Schema (what MCP servers send) into the OpenAPI-3 subset Gemini accepts
 * for a function's `parameters`: `$ref`s inlined (a recursive one cut at a depth, with a note),
 * `type: [x, 'null']` as `nullable`, `const` as a one-value enum, `oneOf`/`allOf` folded, enums
 * and formats Gemini rejects moved into the description, every other keyword dropped. Output
 * keys are a whitelist, so an unknown keyword can never reach the API. A schema that cannot be a
 * function's parameters (its top level is not an object, or it expands past MAX_NODES subschemas)
 * throws SchemaConversionError.
 */

import {
  anyValue,
  appliesTo,
  cutRecursion,
  describeTop,
  describeValues,
  inferType,
  inferTypeOfValues,
  isObject,
  type Json,
  joinText,
  lookup,
  mergeAllOf,
  TYPES,
  text,
  withoutKey,
  withoutKeys,
} from './schema-parts.js';

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
