/**
 * Retrieval quality on a labelled query set: hit@k, the share of queries for which at least one
 * acceptable answer is among the first k results. Used by the quality bench and its test floors.
 */

export interface LabelledQuery {
  query: string;
  /** Acceptable answers (any one counts). */
  expect: readonly string[];
}

export interface QueryOutcome {
  query: string;
  /** 1-based rank of the first acceptable answer, or undefined when none was returned. */
  rank: number | undefined;
  top: string[];
}

/** Runs every query; `search` returns result keys best first (at least `depth` when it can). */
export function evaluateQueries(
  queries: readonly LabelledQuery[],
  search: (query: string) => string[],
): QueryOutcome[] {
  return queries.map(({ query, expect }) => {
    const top = search(query);
    const at = top.findIndex((key) => expect.includes(key));
    return { query, rank: at < 0 ? undefined : at + 1, top };
  });
}

export function hitAt(outcomes: readonly QueryOutcome[], k: number): number {
  if (outcomes.length === 0) return 0;
  return outcomes.filter((o) => o.rank !== undefined && o.rank <= k).length / outcomes.length;
}
