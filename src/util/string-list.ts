/**
 * A JSON value checked as a list of strings, copied: the hand-written checks of a file's content
 * (mcp/plain-entry.ts, mcp/cache-file.ts) read lists this one way.
 */

/** The strings of `value`, copied; undefined when it is not an array of strings. */
export function stringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const copy: string[] = [];
  // By index, not every(): a hole is undefined to a schema, not skipped.
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (typeof item !== 'string') return undefined;
    copy.push(item);
  }
  return copy;
}
