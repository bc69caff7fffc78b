/**
 * Argument checks for the built-in tools. Models send loosely typed JSON, so every tool validates
 * its own arguments and answers with a message that names the tool and the argument.
 */
import { ToolError } from '../types.js';

export function requireString(tool: string, args: Record<string, unknown>, name: string): string {
  const value = args[name];
  if (typeof value !== 'string') throw new ToolError(`${tool}: "${name}" must be a string`);
  return value;
}

/** Absent and null both mean "not given": models often send null for optional arguments. */
export function optionalString(
  tool: string,
  args: Record<string, unknown>,
  name: string,
): string | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ToolError(`${tool}: "${name}" must be a string`);
  return value;
}

export function optionalNonNegativeInteger(
  tool: string,
  args: Record<string, unknown>,
  name: string,
): number | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new ToolError(`${tool}: "${name}" must be a non-negative integer`);
  }
  return value;
}

/** Node's error code (ENOENT, EISDIR...) of a thrown fs error, if it has one. */
export function errnoCode(error: unknown): string | undefined {
  return error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
}

/** True when the first 8 KB hold a NUL byte: the usual cheap test for binary content. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}
