/**
 * The short, one-line-per-field account of how an MCP tool's definition changed since it was
 * pinned, shown in approval prompts and by `geekagent mcp approve`. Server text is made visible
 * (no control characters reach the terminal) and clipped.
 */
import { visibleLine } from '../util/terminal-text.js';

/** The parts of an MCP tool a person approves: what the model reads and what the server declares. */
export interface ToolDefinition {
  /** The server's own tool name. */
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: unknown;
}

const CLIP = 60;

/** `description: "old…" → "new…"`, `input schema: +force, -name`, … — one entry per changed field. */
export function describeDefinitionChanges(before: ToolDefinition, after: ToolDefinition): string[] {
  const changes: string[] = [];
  if (before.title !== after.title) changes.push(`title: ${quote(before.title)} → ${quote(after.title)}`);
  if (before.description !== after.description)
    changes.push(`description: ${quote(before.description)} → ${quote(after.description)}`);
  if (canonicalJson(before.inputSchema) !== canonicalJson(after.inputSchema))
    changes.push(`input schema: ${schemaChange(before.inputSchema, after.inputSchema)}`);
  if (canonicalJson(before.annotations) !== canonicalJson(after.annotations))
    changes.push(`annotations: ${jsonText(before.annotations)} → ${jsonText(after.annotations)}`);
  return changes;
}

/** JSON with object keys sorted at every level, so equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'undefined';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    // defineProperty: a `__proto__` key stays an ordinary key.
    Object.defineProperty(sorted, key, {
      value: sortKeys((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return sorted;
}

/** Properties added (+), removed (-) or changed (~), and a changed `required`; else "changed". */
function schemaChange(before: unknown, after: unknown): string {
  const oldProps = propertiesOf(before);
  const newProps = propertiesOf(after);
  const parts: string[] = [];
  for (const name of Object.keys(newProps)) if (!Object.hasOwn(oldProps, name)) parts.push(`+${name}`);
  for (const name of Object.keys(oldProps)) if (!Object.hasOwn(newProps, name)) parts.push(`-${name}`);
  for (const name of Object.keys(newProps)) {
    if (Object.hasOwn(oldProps, name) && canonicalJson(oldProps[name]) !== canonicalJson(newProps[name]))
      parts.push(`~${name}`);
  }
  const oldRequired = canonicalJson(requiredOf(before));
  const newRequired = canonicalJson(requiredOf(after));
  if (oldRequired !== newRequired) parts.push(`required ${oldRequired} → ${newRequired}`);
  return parts.length > 0 ? clip(visibleLine(parts.join(', '))) : 'changed';
}

function propertiesOf(schema: unknown): Record<string, unknown> {
  const properties = isObject(schema) ? schema.properties : undefined;
  return isObject(properties) ? properties : {};
}

function requiredOf(schema: unknown): unknown {
  return isObject(schema) && Array.isArray(schema.required) ? [...schema.required].sort() : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function quote(text: string | undefined): string {
  return text === undefined ? '(none)' : `"${clip(visibleLine(text))}"`;
}

function jsonText(value: unknown): string {
  return value === undefined ? '(none)' : clip(visibleLine(canonicalJson(value)));
}

function clip(text: string): string {
  return text.length > CLIP ? `${text.slice(0, CLIP - 1)}…` : text;
}
