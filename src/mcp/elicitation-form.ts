/**
 * A server's elicitation form as fields (from the requested schema), and the checks an answer
 * passes before it goes back: the TUI's typed-in text (`parseField`) and a controlling program's
 * JSON content (`checkContent`, stream-json) follow the same rules.
 */
import type { ElicitationRequest, FieldValue } from './client-features.js';

export interface FormField {
  name: string;
  label: string;
  description?: string;
  type: 'string' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';
  options?: string[];
  required: boolean;
  default?: FieldValue;
}

export function formFields(request: ElicitationRequest): FormField[] {
  const required = new Set(request.schema.required ?? []);
  return Object.entries(request.schema.properties ?? {}).map(([name, schema]) => {
    const options = choiceOptions(schema);
    const items = schema.items as Record<string, unknown> | undefined;
    const itemOptions = items ? choiceOptions(items) : undefined;
    const type: FormField['type'] =
      schema.type === 'array' && itemOptions
        ? 'choices'
        : options
          ? 'choice'
          : schema.type === 'number' || schema.type === 'integer' || schema.type === 'boolean'
            ? schema.type
            : 'string';
    return {
      name,
      label: typeof schema.title === 'string' ? schema.title : name,
      ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
      type,
      ...(options || itemOptions ? { options: options ?? itemOptions } : {}),
      required: required.has(name),
      ...(schema.default !== undefined ? { default: schema.default as FieldValue } : {}),
    };
  });
}

function choiceOptions(schema: Record<string, unknown>): string[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  const variants = (schema.oneOf ?? schema.anyOf) as Array<{ const?: unknown }> | undefined;
  if (Array.isArray(variants) && variants.every((v) => v.const !== undefined))
    return variants.map((v) => String(v.const));
  return undefined;
}

/** The value for a field, undefined for "left empty", or an error to show. */
export function parseField(field: FormField, raw: string): FieldValue | undefined | { error: string } {
  const text = raw.trim();
  if (text === '') return field.required ? { error: `${field.label} is required` } : undefined;
  switch (field.type) {
    case 'number':
    case 'integer': {
      const value = Number(text);
      if (!Number.isFinite(value) || (field.type === 'integer' && !Number.isInteger(value))) {
        return {
          error: `${field.label} must be ${field.type === 'integer' ? 'a whole number' : 'a number'}`,
        };
      }
      return value;
    }
    case 'boolean':
      if (/^(y|yes|true|1)$/i.test(text)) return true;
      if (/^(n|no|false|0)$/i.test(text)) return false;
      return { error: `${field.label}: answer y or n` };
    case 'choice':
      return pick(field, text);
    case 'choices': {
      const picked = text.split(',').map((part) => pick(field, part.trim()));
      const bad = picked.find((p) => typeof p === 'object');
      return bad ?? (picked as string[]);
    }
    default:
      return text;
  }
}

function pick(field: FormField, text: string): string | { error: string } {
  const options = field.options ?? [];
  const byNumber = Number(text);
  if (Number.isInteger(byNumber) && byNumber >= 1 && byNumber <= options.length)
    return options[byNumber - 1]!;
  const match = options.find((option) => option.toLowerCase() === text.toLowerCase());
  return match ?? { error: `${field.label}: choose one of ${options.join(', ')}` };
}

/**
 * Accepted content from a program (JSON, not typed text): each value of the field's type and among
 * its choices, every required field present, no field the form does not have. The content kept, or
 * the first problem, worded as the TUI words it.
 */
export function checkContent(
  request: ElicitationRequest,
  content: unknown,
): { content: Record<string, FieldValue> } | { error: string } {
  if (typeof content !== 'object' || content === null || Array.isArray(content))
    return { error: 'content must be an object of the form’s fields' };
  const fields = formFields(request);
  const values = content as Record<string, unknown>;
  const known = new Set(fields.map((field) => field.name));
  const stray = Object.keys(values).find((name) => !known.has(name));
  if (stray !== undefined) return { error: `the form has no field ${JSON.stringify(stray)}` };
  const kept: Record<string, FieldValue> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (value === undefined || value === null) {
      if (field.required) return { error: `${field.label} is required` };
      continue;
    }
    const problem = valueProblem(field, value);
    if (problem) return { error: problem };
    kept[field.name] = value as FieldValue;
  }
  return { content: kept };
}

function valueProblem(field: FormField, value: unknown): string | undefined {
  const options = field.options ?? [];
  switch (field.type) {
    case 'number':
    case 'integer':
      return typeof value === 'number' &&
        Number.isFinite(value) &&
        (field.type === 'number' || Number.isInteger(value))
        ? undefined
        : `${field.label} must be ${field.type === 'integer' ? 'a whole number' : 'a number'}`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${field.label} must be true or false`;
    case 'choice':
      return typeof value === 'string' && options.includes(value)
        ? undefined
        : `${field.label}: choose one of ${options.join(', ')}`;
    case 'choices':
      return Array.isArray(value) && value.every((item) => typeof item === 'string' && options.includes(item))
        ? undefined
        : `${field.label}: choose from ${options.join(', ')}`;
    default:
      return typeof value === 'string' ? undefined : `${field.label} must be a string`;
  }
}
