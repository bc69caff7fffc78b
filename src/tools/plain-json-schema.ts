/**
 * A tool's argument schema as JSON Schema without zod's converter, for the plain shapes the tools
 * declare (objects of strings, integers, booleans, string enums, arrays, optional keys, `describe`).
 * Why: `z.toJSONSchema` is general (refs, cycles, every type) and its first run at start costs
 * ~3 ms of the first model request's CPU; these shapes need a few lines. Anything else answers
 * undefined and the caller uses zod's converter. The output is zod's, key for key and in the same
 * order (test/unit/tools/plain-json-schema.test.ts compares both for every built-in tool).
 */
import * as z from '../util/schema.js';

type Json = Record<string, unknown>;
type Io = 'input' | 'output';

/**
 * The JSON Schema zod would give with arguments.ts's override (`$schema` and the safe-integer
 * bounds left out), or undefined for a shape not covered.
 */
export function plainJsonSchema(schema: z.ZodMiniType, io: Io): Json | undefined {
  return convert(schema, io);
}

function convert(schema: z.ZodMiniType, io: Io): Json | undefined {
  const meta = z.globalRegistry.get(schema);
  // biome-ignore lint/suspicious/noExplicitAny: zod's internal definitions, read by their `type`.
  const def = schema._zod.def as any;
  if (meta && (def.type === 'optional' || Object.keys(meta).some((key) => key !== 'description')))
    return undefined;
  const json = convertDef(def, io);
  if (json === undefined) return undefined;
  if (meta?.description !== undefined) json.description = meta.description;
  return json;
}

/** The checks a definition carries, by kind; undefined when one is not among `allowed`. */
// biome-ignore lint/suspicious/noExplicitAny: zod's internal definitions.
function checksOf(def: any, allowed: readonly string[]): Json[] | undefined {
  const checks: Json[] = (def.checks ?? []).map((check: z.core.$ZodCheck) => check._zod.def);
  return checks.every((check) => allowed.includes(check.check as string)) ? checks : undefined;
}

// biome-ignore lint/suspicious/noExplicitAny: zod's internal definitions.
function convertDef(def: any, io: Io): Json | undefined {
  switch (def.type) {
    case 'string': {
      if (def.format !== undefined) return undefined;
      const checks = checksOf(def, ['describe', 'min_length', 'max_length']);
      if (!checks) return undefined;
      const json: Json = { type: 'string' };
      const min = bound(checks, 'min_length', 'minimum', Math.max);
      const max = bound(checks, 'max_length', 'maximum', Math.min);
      if (min !== undefined) json.minLength = min;
      if (max !== undefined) json.maxLength = max;
      return json;
    }
    case 'number': {
      if (def.format === undefined && checksOf(def, ['describe'])) return { type: 'number' };
      if (def.format !== 'safeint') return undefined;
      const checks = checksOf(def, ['describe', 'greater_than', 'less_than']);
      if (!checks || checks.some((check) => 'inclusive' in check && check.inclusive !== true))
        return undefined;
      const min = bound(checks, 'greater_than', 'value', Math.max);
      const max = bound(checks, 'less_than', 'value', Math.min);
      // zod states the safe-integer range, which arguments.ts drops (the model needs no such bound).
      const json: Json = { type: 'integer' };
      const minimum = Math.max(min ?? Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER);
      const maximum = Math.min(max ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
      if (minimum !== Number.MIN_SAFE_INTEGER) json.minimum = minimum;
      if (maximum !== Number.MAX_SAFE_INTEGER) json.maximum = maximum;
      return json;
    }
    case 'boolean':
      return checksOf(def, ['describe']) ? { type: 'boolean' } : undefined;
    case 'enum': {
      const values = Object.values(def.entries as Record<string, unknown>);
      if (!values.every((value) => typeof value === 'string') || !checksOf(def, ['describe']))
        return undefined;
      return { type: 'string', enum: values };
    }
    case 'array': {
      const checks = checksOf(def, ['describe', 'min_length', 'max_length']);
      if (!checks) return undefined;
      const items = convert(def.element, io);
      if (items === undefined) return undefined;
      // zod's order: the bounds first.
      const json: Json = {};
      const min = bound(checks, 'min_length', 'minimum', Math.max);
      const max = bound(checks, 'max_length', 'maximum', Math.min);
      if (min !== undefined) json.minItems = min;
      if (max !== undefined) json.maxItems = max;
      return Object.assign(json, { type: 'array', items });
    }
    case 'object': {
      if (def.catchall !== undefined || !checksOf(def, ['describe'])) return undefined;
      const properties: Json = {};
      const required: string[] = [];
      for (const [key, value] of Object.entries(def.shape as Record<string, z.ZodMiniType>)) {
        const property = convert(value, io);
        if (property === undefined) return undefined;
        properties[key] = property;
        const optional = io === 'input' ? value._zod.optin : value._zod.optout;
        if (optional !== 'optional') required.push(key);
      }
      const json: Json = { type: 'object', properties };
      if (required.length > 0) json.required = required;
      if (io === 'output') json.additionalProperties = false;
      return json;
    }
    case 'optional': {
      if (!checksOf(def, ['describe'])) return undefined;
      return convert(def.innerType, io);
    }
    default:
      return undefined;
  }
}

function bound(
  checks: Json[],
  kind: string,
  field: string,
  pick: (a: number, b: number) => number,
): number | undefined {
  let result: number | undefined;
  for (const check of checks) {
    if (check.check !== kind) continue;
    const value = check[field] as number;
    result = result === undefined ? value : pick(result, value);
  }
  return result;
}
