/**
 * Tool definitions as the Anthropic Messages API accepts them: a name matching its pattern and an
 * `input_schema` that is an object schema valid under JSON Schema draft 2020-12 (the API checks it
 * against the meta-schema and rejects the whole request otherwise). What can be repaired is (an
 * old tuple `items: [...]` becomes `prefixItems`); a tool whose schema cannot be sent is left out
 * alone, with the reason, so the caller can say so — never the whole request.
 */
import type { JsonSchema } from '../../tools/types.js';
import type { ProviderTool } from '../types.js';

/** The API's pattern for a custom tool's name. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
/** Keywords whose value is one subschema. */
const ONE_SCHEMA = [
  'additionalProperties',
  'items',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
] as const;
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;
/** Keywords whose value is a non-empty list of subschemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const COUNTS = [
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
] as const;
const NUMBERS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;
/** Deeper than this is a hostile schema, not a tool's arguments. */
const MAX_DEPTH = 64;

export interface AnthropicToolDef {
  name: string;
  description?: string;
  input_schema: { type: 'object'; [key: string]: unknown };
}

export interface DroppedTool {
  tool: ProviderTool;
  reason: string;
}

export interface ConvertedTools {
  /** The tools sent, in the order given (error messages point at them by index). */
  tools: AnthropicToolDef[];
  /** Index in `tools` → the ProviderTool it came from. */
  sources: ProviderTool[];
  dropped: DroppedTool[];
}

export function toAnthropicTools(tools: readonly ProviderTool[]): ConvertedTools {
  const out: ConvertedTools = { tools: [], sources: [], dropped: [] };
  for (const tool of tools) {
    const converted = convertTool(tool);
    if (typeof converted === 'string') {
      out.dropped.push({ tool, reason: converted });
      continue;
    }
    out.tools.push(converted);
    out.sources.push(tool);
  }
  return out;
}

/** The definition to send, or why the tool cannot be sent. */
export function convertTool(tool: ProviderTool): AnthropicToolDef | string {
  if (!TOOL_NAME.test(tool.name)) {
    return `its name ${JSON.stringify(tool.name)} does not match Anthropic's pattern ${TOOL_NAME.source}`;
  }
  const schema = toInputSchema(tool.parameters);
  if (typeof schema === 'string') return schema;
  const def: AnthropicToolDef = { name: tool.name, input_schema: schema };
  if (tool.description) def.description = tool.description;
  return def;
}

/** `parameters` as an Anthropic `input_schema`, or the reason it cannot be one. */
export function toInputSchema(parameters: JsonSchema | undefined): AnthropicToolDef['input_schema'] | string {
  if (!isObject(parameters)) return 'its input schema is not a JSON object';
  if (parameters.type !== 'object') {
    return `its input schema must have type "object" at the top (got ${JSON.stringify(parameters.type ?? null)})`;
  }
  for (const keyword of ['oneOf', 'anyOf', 'allOf'] as const) {
    if (keyword in parameters)
      return `its input schema has "${keyword}" at the top, which Anthropic does not take`;
  }
  const repaired = checkSchema(parameters, 'input_schema', 0);
  if (typeof repaired === 'string') return `its input schema is not valid JSON Schema: ${repaired}`;
  return repaired as AnthropicToolDef['input_schema'];
}

/** A copy of `node` with repairs applied, or where and why it is invalid. */
function checkSchema(node: unknown, at: string, depth: number): unknown {
  if (typeof node === 'boolean') return node;
  if (!isObject(node)) return `${at} must be an object or a boolean`;
  if (depth > MAX_DEPTH) return `${at} is nested more than ${MAX_DEPTH} levels deep`;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    const problem = checkKeyword(key, value, `${at}.${key}`, depth, out);
    if (problem !== undefined) return problem;
  }
  return out;
}

/** Checks one keyword and writes its (repaired) value into `out`; returns a problem, if any. */
function checkKeyword(
  key: string,
  value: unknown,
  at: string,
  depth: number,
  out: JsonSchema,
): string | undefined {
  if (key === 'type') {
    const list = Array.isArray(value) ? value : [value];
    const valid =
      list.length > 0 &&
      list.every((t) => typeof t === 'string' && TYPES.has(t)) &&
      new Set(list).size === list.length;
    if (!valid)
      return `${at} must be one of ${[...TYPES].join(', ')} or a list of them (got ${JSON.stringify(value)})`;
    out[key] = value;
    return undefined;
  }
  if (key === 'items' && Array.isArray(value)) {
    // Draft 7's tuple form: 2020-12 spells it prefixItems (and an `items` array fails the check).
    if ('prefixItems' in out) return `${at} is a list beside prefixItems`;
    return checkKeyword('prefixItems', value, at, depth, out);
  }
  if ((ONE_SCHEMA as readonly string[]).includes(key)) {
    const sub = checkSchema(value, at, depth + 1);
    if (typeof sub === 'string') return sub;
    out[key] = sub;
    return undefined;
  }
  if ((SCHEMA_MAPS as readonly string[]).includes(key)) {
    if (!isObject(value)) return `${at} must be an object of schemas`;
    const map: JsonSchema = {};
    for (const [name, sub] of Object.entries(value)) {
      const checked = checkSchema(sub, `${at}.${name}`, depth + 1);
      if (typeof checked === 'string') return checked;
      map[name] = checked;
    }
    out[key] = map;
    return undefined;
  }
  if ((SCHEMA_LISTS as readonly string[]).includes(key)) {
    if (!Array.isArray(value) || value.length === 0) return `${at} must be a non-empty list of schemas`;
    const list: unknown[] = [];
    for (const [index, sub] of value.entries()) {
      const checked = checkSchema(sub, `${at}.${index}`, depth + 1);
      if (typeof checked === 'string') return checked;
      list.push(checked);
    }
    out[key] = list;
    return undefined;
  }
  if (key === 'required') {
    if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) {
      return `${at} must be a list of property names`;
    }
    out[key] = [...new Set(value)];
    return undefined;
  }
  if (key === 'enum' && !Array.isArray(value)) return `${at} must be a list`;
  if ((COUNTS as readonly string[]).includes(key) && !(Number.isInteger(value) && (value as number) >= 0)) {
    return `${at} must be a whole number ≥ 0 (got ${JSON.stringify(value)})`;
  }
  if ((NUMBERS as readonly string[]).includes(key) && typeof value !== 'number') {
    return `${at} must be a number (got ${JSON.stringify(value)})`;
  }
  if (key === 'multipleOf' && !(typeof value === 'number' && value > 0)) return `${at} must be a number > 0`;
  if (
    (key === 'pattern' || key === 'format' || key === 'description' || key === 'title') &&
    typeof value !== 'string'
  ) {
    return `${at} must be a string`;
  }
  out[key] = value;
  return undefined;
}

function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
