/**
 * The small pieces of schema.ts's conversion: an "any value" schema, the recursion cut, type
 * inference, allOf folding, local `$ref` lookup and text joining. No state.
 */

export type Json = Record<string, unknown>;

export const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

/** Where a recursive `$ref` stops: its kind kept when it is simple, otherwise any object. */
export function cutRecursion(target: Json, ref: string, description: string | undefined): Json {
  const name = ref.split('/').pop() ?? ref;
  const note = `(recursive ${name}: same shape as the enclosing ${name}, not expanded further)`;
  const kind = typeof target.type === 'string' && TYPES.has(target.type) ? target.type : 'object';
  const out: Json = { type: kind, description: joinText(description ?? text(target.description), note) };
  if (kind === 'array') out.items = anyValue(undefined);
  return out;
}

/** A value of any JSON type: Gemini needs a `type` or an `anyOf` on every schema. */
export function anyValue(description: string | undefined): Json {
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

export function inferType(schema: Json): string | undefined {
  if (isObject(schema.properties) || isObject(schema.additionalProperties) || 'required' in schema)
    return 'object';
  if ('items' in schema || 'minItems' in schema || 'maxItems' in schema) return 'array';
  if ('minimum' in schema || 'maximum' in schema) return 'number';
  if ('minLength' in schema || 'maxLength' in schema || 'pattern' in schema || 'format' in schema)
    return 'string';
  return undefined;
}

export function inferTypeOfValues(values: unknown[]): string | undefined {
  const kinds = new Set(values.map((value) => (Number.isInteger(value) ? 'integer' : typeof value)));
  if (kinds.size !== 1) return undefined;
  const [kind] = kinds;
  return kind === 'integer' || kind === 'number' || kind === 'boolean' || kind === 'string'
    ? kind
    : undefined;
}

export function describeValues(values: unknown[]): string {
  const shown = values.slice(0, 40).map((value) => JSON.stringify(value));
  const more = values.length > shown.length ? `, … (${values.length} values in all)` : '';
  return values.length === 1 ? `must be ${shown[0]}` : `one of ${shown.join(', ')}${more}`;
}

export function appliesTo(key: string, type: string): boolean {
  if (key.endsWith('Items')) return type === 'array';
  if (key.endsWith('Length')) return type === 'string';
  return type === 'object';
}

/** allOf members folded into one schema: properties and required joined, the first type kept. */
export function mergeAllOf(schema: Json): Json {
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
export function lookup(ref: string, root: Json): Json | undefined {
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

export function describeTop(schema: Json): string {
  if (schema.anyOf !== undefined || schema.oneOf !== undefined)
    return 'a choice between schemas (anyOf/oneOf)';
  return `of type ${JSON.stringify(schema.type)}`;
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export function joinText(first: string | undefined, second: string | undefined): string | undefined {
  if (first === undefined) return second;
  return second === undefined ? first : `${first} ${second}`;
}

export function withoutKey(schema: Json, key: string): Json {
  const { [key]: _dropped, ...rest } = schema;
  return rest;
}

export function withoutKeys(schema: Json, keys: readonly string[]): Json {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !keys.includes(key)));
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
