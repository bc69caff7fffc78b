/**
 * The validation library every config and state file goes through: zod's tree-shakable build
 * (`zod/mini`, the functional API: `z.optional(z.string())`, `.check(z.minLength(1))`), with
 * English messages. Not the classic API: the bundle carried all of it (~200 KB, every schema
 * type and method) and compiled it at every start, ~40 ms before the first model request or the
 * TUI's first frame on this machine; mini's functions bundle only what the schemas use. Both share
 * zod's core (the MCP SDK, loaded with the first server, brings the classic API for itself).
 */
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// mini ships no messages of its own; these are classic's ("Invalid input: expected string, …").
config(en());

// Re-exported name by name, never as one namespace object: that would keep every export alive.
// Import it as `import * as z from '…/util/schema.js'`.
export * from 'zod/mini';

/**
 * A schema built on its first use, not when its module loads: zod's objects cost a start that
 * never reads the file they check (most runs have no hooks, no named models) ~0.2-2 ms each.
 */
export function lazySchema<T>(build: () => T): () => T {
  let schema: T | undefined;
  return () => {
    schema ??= build();
    return schema;
  };
}
