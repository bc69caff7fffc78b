/**
 * The plain data of one search index, shared by the index (bm25-index.ts) and its serialisation
 * (serialize.ts). Documents are numbered densely in insertion order; a removed document leaves a
 * hole (`docIds[num] === undefined`) until the numbers are compacted.
 */
import type { ForwardIndex } from './forward.js';
import type { PostingList } from './postings.js';

export interface FieldSpec {
  name: string;
  boost: number;
}

export interface IndexState {
  fields: FieldSpec[];
  k1: number;
  b: number;
  stem: boolean;
  /** Document number → id (undefined once removed). */
  docIds: (string | undefined)[];
  docNums: Map<string, number>;
  /** Per field, document number → number of terms in that field. */
  lengths: Uint32Array[];
  /** Per field, the sum of `lengths` over live documents. */
  totalLength: number[];
  terms: string[];
  termIds: Map<string, number>;
  /** Key `termId * fields.length + field` → the term's postings in that field. */
  postings: (PostingList | undefined)[];
  /**
   * Document number → its posting keys, to remove it. Built on the first removal (from the
   * postings), then kept up to date: a bulk build or a load never pays for it.
   */
  forward: ForwardIndex | undefined;
}

export function newState(fields: FieldSpec[], k1: number, b: number, stem: boolean): IndexState {
  return {
    fields,
    k1,
    b,
    stem,
    docIds: [],
    docNums: new Map(),
    lengths: fields.map(() => new Uint32Array(64)),
    totalLength: fields.map(() => 0),
    terms: [],
    termIds: new Map(),
    postings: [],
    forward: undefined,
  };
}
