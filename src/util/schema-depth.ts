/**
 * How deep a tool's JSON Schema nests, counted without recursion: a hostile server's 10,000-deep
 * schema must be refused as one tool, not overflow the stack when the request body is serialised
 * (which would fail every request).
 */

/** Deeper than this is a hostile schema, not a tool's arguments. */
export const MAX_SCHEMA_DEPTH = 64;

/** Whether `schema` nests objects or arrays deeper than `limit`. */
export function nestsDeeperThan(schema: unknown, limit: number = MAX_SCHEMA_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[schema, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
