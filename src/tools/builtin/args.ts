/**
 * Small helpers the built-in tools share. Their arguments are declared and checked in one place:
 * a zod schema per tool through tools/arguments.ts.
 */

/** Node's error code (ENOENT, EISDIR...) of a thrown fs error, if it has one. */
export function errnoCode(error: unknown): string | undefined {
  return error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
}

/** True when the first 8 KB hold a NUL byte: the usual cheap test for binary content. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}
