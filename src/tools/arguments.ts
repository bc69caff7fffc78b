/**
 * A tool's arguments declared once: one zod object gives the JSON Schema the model is sent and the
 * check that runs before the tool does. Models send loosely typed JSON, so a failed check answers
 * with a message naming the tool, the argument and what came instead (the model reads it as the
 * call's result and can retry).
 * Both are made on first use: a tool reads `parameters` through a getter (`get parameters()`), so
 * creating the tools at start builds no schema.
 */
import * as z from '../util/schema.js';
import { plainJsonSchema } from './plain-json-schema.js';
import { type JsonSchema, ToolError } from './types.js';

export interface ToolArguments<T> {
  /** The JSON Schema of the arguments, as the model sees it (no `$schema` key); made once, on first read. */
  readonly parameters: JsonSchema;
  /** The arguments checked and typed; a ToolError naming the tool and the argument otherwise. */
  parse(args: Record<string, unknown>): T;
}

/** What a tool's arguments are declared with: a zod (mini) object. */
// biome-ignore lint/suspicious/noExplicitAny: any object shape; the result type comes from it.
type ArgsSchema = z.ZodMiniObject<any>;

export interface ToolArgumentsOptions {
  /**
   * Leave `additionalProperties` out of the JSON Schema, as tools whose hand-written schema never
   * had it (todo_write, delegate_task). Unknown arguments are dropped either way.
   */
  open?: boolean;
}

export function toolArguments<S extends ArgsSchema>(
  tool: string,
  define: () => S,
  options: ToolArgumentsOptions = {},
): ToolArguments<z.output<S>> {
  // Built on first use, not at start: zod's objects and their JSON Schema cost 2-7 ms for the
  // built-in tools, and neither is needed before the first model request or the first call.
  let schema: S | undefined;
  let parameters: JsonSchema | undefined;
  const schemaOf = (): S => (schema ??= define());
  return {
    get parameters() {
      parameters ??= jsonSchemaOf(schemaOf(), options.open === true);
      return parameters;
    },
    parse(args) {
      const given = withoutNulls(args);
      const result = schemaOf().safeParse(given);
      if (result.success) return result.data;
      const issue = result.error.issues[0];
      throw new ToolError(`${tool}: ${issue ? describeIssue(issue, given) : 'invalid arguments'}`);
    },
  };
}

/**
 * Absent and null both mean "not given": models often send null for an optional argument. A
 * required one sent as null is then reported missing.
 */
function withoutNulls(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null));
}

/**
 * The arguments' JSON Schema: plain-json-schema.ts's for the shapes it covers (cheaper at start),
 * zod's converter otherwise or with `zodOnly` (the test that compares both).
 */
export function jsonSchemaOf(schema: ArgsSchema, open: boolean, zodOnly = false): JsonSchema {
  const plain = zodOnly ? undefined : plainJsonSchema(schema, open ? 'input' : 'output');
  const json = (plain ??
    z.toJSONSchema(schema, {
      // The input side of an object says nothing of extra keys; the output side closes it.
      io: open ? 'input' : 'output',
      override: ({ jsonSchema }) => {
        // z.int() states the safe-integer range; the model needs no such bound.
        if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
        if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      },
    })) as JsonSchema;
  const { $schema: _dialect, ...rest } = json;
  // `required: []` kept for an object without required arguments, as the hand-written schemas had.
  const { type, properties, required = [], ...others } = rest;
  return { type, properties, required, ...others };
}

/** `"path" must be a string (got a number)`, `"hunks[0].old" must be a string (it is missing)`. */
function describeIssue(issue: z.core.$ZodIssue, args: Record<string, unknown>): string {
  const name = `"${issue.path.map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`)).join('')}"`;
  switch (issue.code) {
    case 'invalid_type': {
      const value = valueAt(args, issue.path);
      const got = value === undefined ? 'it is missing' : `got ${kindOf(value)}`;
      return `${name} must be ${EXPECTED[issue.expected] ?? issue.expected} (${got})`;
    }
    case 'too_small':
      if (issue.origin === 'array') {
        return issue.minimum === 1
          ? `${name} must not be empty`
          : `${name} must have at least ${issue.minimum} items`;
      }
      if (issue.origin === 'string') return `${name} must be at least ${issue.minimum} character(s) long`;
      return `${name} must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'array') return `${name} must have at most ${issue.maximum} items`;
      if (issue.origin === 'string') return `${name} must be at most ${issue.maximum} character(s) long`;
      return `${name} must be at most ${issue.maximum}`;
    case 'invalid_value':
      return `${name} must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    default:
      return `${name}: ${issue.message}`;
  }
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
};

function valueAt(args: Record<string, unknown>, path: readonly PropertyKey[]): unknown {
  let value: unknown = args;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'number' && !Number.isInteger(value)) return 'a fractional number';
  const type = typeof value;
  return type === 'object' || type === 'undefined' ? `an ${type}` : `a ${type}`;
}
