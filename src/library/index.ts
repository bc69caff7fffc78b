/**
 * The package's library entry (`import { query } from "geekagent"`): the agent driven from code,
 * its messages exactly the stream-json output's. Wiring only: query.ts runs it, types.ts types it.
 * `query` is declared here with the public types alone, so the shipped index.d.ts and types.d.ts
 * stand on their own (scripts/library-types.mjs copies just those two).
 */
import { query as runQuery } from './query.js';
import type { Query, QueryParams } from './types.js';

export type * from './types.js';

/** Runs the agent in this process; the returned iterable yields the stream-json messages. */
export function query(params: QueryParams): Query {
  return runQuery(params);
}
