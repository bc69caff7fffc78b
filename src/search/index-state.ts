/**
 * The plain data of one search index, shared by the index (bm25-index.ts) and its serialisation
 * (serialize.ts), with the operations on it below the ranking: term lookup, first-read decoding
 * of a loaded index's postings, field lengths, the forward index, document renumbering.
 * Documents are numbered densely in insertion order; a removed document leaves a hole
 * (`docIds[num] === undefined`) until the numbers are compacted.
 */
import { formatError } from './format-error.js';
import { ForwardIndex } from './forward.js';
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
  docNums: DocNumbers;
  /** Per field, document number → number of terms in that field. */
  lengths: Uint32Array[];
  /** Per field, the sum of `lengths` over live documents. */
  totalLength: number[];
  terms: string[];
  /** `terms[0 .. sortedTerms)` are sorted (a loaded index's): found by binary search, not in the map. */
  sortedTerms: number;
  /** Term → id for every term from `sortedTerms` on. */
  termIds: Map<string, number>;
  /**
   * Key `termId * fields.length + field` → the term's postings in that field. After a load, a key
   * may still be only in `frozen`: always read through `postingsOf`.
   */
  postings: (PostingList | undefined)[];
  /** A loaded index's postings, still encoded; each key is decoded the first time it is read. */
  frozen: FrozenPostings | undefined;
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
    docNums: new DocNumbers([]),
    lengths: fields.map(() => new Uint32Array(64)),
    totalLength: fields.map(() => 0),
    terms: [],
    sortedTerms: 0,
    termIds: new Map(),
    postings: [],
    frozen: undefined,
    forward: undefined,
  };
}

/**
 * Id → document number. Built from the id list on first use: a loaded index that only answers
 * queries never pays for a map of 150,000 ids (most of a large load); the first change does.
 */
export class DocNumbers {
  private map: Map<string, number> | undefined;
  private readonly count: number;

  /** `ids[0 .. length)` (documents in number order, no holes) are the documents at creation. */
  constructor(private ids: readonly (string | undefined)[] | undefined) {
    this.count = ids?.length ?? 0;
  }

  get size(): number {
    return this.map ? this.map.size : this.count;
  }

  get(id: string): number | undefined {
    return this.built().get(id);
  }

  has(id: string): boolean {
    return this.built().has(id);
  }

  set(id: string, num: number): void {
    this.built().set(id, num);
  }

  delete(id: string): boolean {
    return this.built().delete(id);
  }

  /** Builds the map now; a stored index naming one id twice is refused here. */
  built(): Map<string, number> {
    if (this.map) return this.map;
    const map = new Map<string, number>();
    const ids = this.ids ?? [];
    for (let num = 0; num < this.count; num++) map.set(ids[num]!, num);
    if (map.size !== this.count) formatError('two documents have the same id');
    this.map = map;
    this.ids = undefined;
    return map;
  }
}

export interface FrozenPostings {
  /** Per key: a count n, then n × (document delta, tf), as LEB128 varints. */
  bytes: Uint8Array;
  /** Byte offset of each key's data; `keys + 1` entries. */
  offsets: Float64Array;
  keys: number;
  /** Documents at load: every posting's number is below. */
  docs: number;
}

export function termIdOf(s: IndexState, term: string): number | undefined {
  const id = s.termIds.get(term);
  if (id !== undefined) return id;
  let lo = 0;
  let hi = s.sortedTerms - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const t = s.terms[mid]!;
    if (t === term) return mid;
    if (t < term) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** The postings of a key, decoding them from the loaded form the first time. */
export function postingsOf(s: IndexState, key: number): PostingList | undefined {
  const list = s.postings[key];
  if (list !== undefined || !s.frozen || key >= s.frozen.keys) return list;
  const { bytes, offsets, docs } = s.frozen;
  let pos = offsets[key]!;
  const end = offsets[key + 1]!;
  if (pos === end) return undefined;
  const read = (): number => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      if (pos >= end) formatError('postings: a list ends in the middle of a number');
      const byte = bytes[pos++]!;
      if (shift === 28 && byte > 0x0f) formatError('postings: a number is over 32 bits');
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  const n = read();
  if (n === 0) return undefined;
  if (n > docs) formatError('postings: a list is longer than the documents');
  const data = new Uint32Array(n * 2);
  let doc = -1;
  for (let i = 0; i < n; i++) {
    doc += read() + 1;
    data[i * 2] = doc;
    data[i * 2 + 1] = read();
  }
  if (doc >= docs) formatError('a posting names a document that does not exist');
  if (pos !== end) formatError('postings: a list has data past its end');
  const decoded = { data, length: n };
  s.postings[key] = decoded;
  return decoded;
}

/** Decodes every frozen key (before renumbering documents, or to walk all postings). */
export function thawAll(s: IndexState): void {
  if (!s.frozen) return;
  for (let key = 0; key < s.frozen.keys; key++) postingsOf(s, key);
  s.frozen = undefined;
}

/** Number of posting keys (decoded or not). */
export function keyCount(s: IndexState): number {
  return Math.max(s.postings.length, s.frozen?.keys ?? 0);
}

export function pushLength(s: IndexState, f: number, num: number, length: number): void {
  let lengths = s.lengths[f]!;
  if (num >= lengths.length) {
    const grown = new Uint32Array(Math.max(64, lengths.length * 2));
    grown.set(lengths);
    lengths = grown;
    s.lengths[f] = lengths;
  }
  lengths[num] = length;
  s.totalLength[f]! += length;
}

/** Per document, the posting keys it appears under; rebuilt from the postings after a load. */
export function forwardIndex(s: IndexState): ForwardIndex {
  if (!s.forward) {
    thawAll(s);
    s.forward = ForwardIndex.fromPostings(s.postings, s.docIds.length);
  }
  return s.forward;
}

/** Renumbers live documents densely once most numbers belong to removed documents. */
export function compactDocs(s: IndexState): void {
  thawAll(s);
  const remap = new Int32Array(s.docIds.length).fill(-1);
  const ids: (string | undefined)[] = [];
  s.docIds.forEach((id, num) => {
    if (id === undefined) return;
    remap[num] = ids.length;
    ids.push(id);
  });
  for (const list of s.postings) {
    if (!list) continue;
    for (let i = 0; i < list.length; i++) list.data[i * 2] = remap[list.data[i * 2]!]!;
  }
  s.lengths = s.lengths.map((old) => {
    const lengths = new Uint32Array(Math.max(64, ids.length));
    remap.forEach((to, from) => {
      if (to >= 0) lengths[to] = old[from]!;
    });
    return lengths;
  });
  s.forward?.renumber((doc) => remap[doc]!);
  s.docIds = ids;
  s.docNums = new DocNumbers(ids);
}
