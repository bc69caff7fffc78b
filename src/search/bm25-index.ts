/**
 * The BM25 index: documents with named fields, each field with a boost; add / replace / remove by
 * id at any time; ranked search. Scoring is BM25F (Robertson et al., "Simple BM25 extension to
 * multiple weighted fields"): for a term t and a document,
 *   t̃ = Σ_fields boost_f · tf_f / (1 − b + b · len_f / avglen_f)
 *   score = idf(t) · t̃ · (k1 + 1) / (t̃ + k1),   idf(t) = ln(1 + (N − n + 0.5) / (n + 0.5))
 * (N live documents, n of them containing t in any field; k1 1.2, b 0.75 by default). With one
 * field of boost 1 this is exactly classic BM25. Unlike a sum of per-field BM25 scores, a word
 * found in both a tool's name and its description saturates once instead of counting twice.
 * A query is clauses (query.ts): a document scores the sum over clauses of the clause's best
 * alternative (the word itself, weight 1, or a synonym, lower weight).
 */

import { indexToByteParts, indexToBytes } from './binary.js';
import {
  compactDocs,
  forwardIndex,
  type IndexState,
  newState,
  postingsOf,
  pushLength,
  termIdOf,
} from './index-state.js';
import { appendPosting, findPosting, newPostingList, removePosting } from './postings.js';
import { compileSynonyms, EMPTY_SYNONYMS, parseQuery, type QueryClause, type SynonymTable } from './query.js';
import { type SerializedIndex, serializeIndex } from './serialize.js';
import { ENGLISH_STOP_WORDS } from './stop-words.js';
import { DEFAULT_SYNONYMS, type SynonymGroups } from './synonyms.js';
import { type Analyzer, createAnalyzer } from './tokenizer.js';
import { TopK } from './top-k.js';

export interface FieldOptions {
  /** Multiplies the field's score (default 1). */
  boost?: number;
}

/** Query-time behaviour: not stored in a serialised index, given again to `loadIndex`. */
export interface QueryBehaviour {
  /** Synonym groups applied to queries (default DEFAULT_SYNONYMS); false for none. */
  synonyms?: SynonymGroups | false;
  /** Weight of a synonym relative to the word itself (default 0.5). */
  synonymWeight?: number;
  /** Stop words dropped from queries (default English); false for none. */
  stopWords?: ReadonlySet<string> | false;
}

export interface IndexOptions extends QueryBehaviour {
  fields: Record<string, FieldOptions>;
  /** BM25 term-frequency saturation (default 1.2). */
  k1?: number;
  /** BM25 length normalisation (default 0.75). */
  b?: number;
  /** English (Porter) stemming of documents and queries (default true). */
  stem?: boolean;
}

/** A document: field name → text (or several texts, e.g. parameter names). Unknown fields ignored. */
export type SearchDocument = Readonly<Record<string, string | readonly string[] | undefined | null>>;

export interface SearchOptions {
  /** Most hits returned (default 10). */
  limit?: number;
  /** Only hits scoring above this (default 0). */
  minScore?: number;
  /** Only documents this accepts. */
  filter?: (id: string) => boolean;
}

export interface SearchHit {
  id: string;
  score: number;
  /** The query words (or synonym phrases) this document matched, in query order. */
  matches: string[];
}

export const DEFAULT_K1 = 1.2;
export const DEFAULT_B = 0.75;
export const DEFAULT_SYNONYM_WEIGHT = 0.5;

export class SearchIndex {
  private readonly state: IndexState;
  private readonly analyzer: Analyzer;
  private readonly stopWords: ReadonlySet<string>;
  /** Compiled on the first query, not per index: stemming every group cost ~10 ms at start-up. */
  private synonymsValue: SynonymTable | undefined;
  private readonly synonymGroups: SynonymGroups;
  private readonly synonymWeight: number;
  /** Bumped by every change, so the cached length norms are recomputed. */
  private version = 0;
  private normsVersion = -1;
  private norms: Float64Array[] = [];
  // Score buffers and touched-document lists, reused across queries (per index, never shared).
  private buffers:
    | {
        total: Float64Array;
        clause: Float64Array;
        alt: Float64Array;
        totalList: Int32Array;
        clauseList: Int32Array;
        altList: Int32Array;
        tf: Float64Array;
        tfList: Int32Array;
      }
    | undefined;

  /** Use `createIndex` or `loadIndex`. */
  constructor(state: IndexState, behaviour: QueryBehaviour = {}) {
    this.state = state;
    this.analyzer = createAnalyzer({ stem: state.stem });
    this.stopWords = behaviour.stopWords === false ? new Set() : (behaviour.stopWords ?? ENGLISH_STOP_WORDS);
    this.synonymGroups = behaviour.synonyms === false ? [] : (behaviour.synonyms ?? DEFAULT_SYNONYMS);
    this.synonymWeight = behaviour.synonymWeight ?? DEFAULT_SYNONYM_WEIGHT;
  }

  private get synonyms(): SynonymTable {
    this.synonymsValue ??=
      this.synonymGroups.length === 0
        ? EMPTY_SYNONYMS
        : compileSynonyms(this.synonymGroups, this.analyzer, this.synonymWeight);
    return this.synonymsValue;
  }

  /** Number of documents. */
  get size(): number {
    return this.state.docNums.size;
  }

  has(id: string): boolean {
    return this.state.docNums.has(id);
  }

  /** The ids of all documents, in insertion order. */
  ids(): string[] {
    return this.state.docIds.filter((id): id is string => id !== undefined);
  }

  /** Adds a document; an id already present is an error (use `replace`). */
  add(id: string, doc: SearchDocument): void {
    if (this.state.docNums.has(id)) throw new Error(`search index: document "${id}" is already indexed`);
    this.insert(id, doc);
  }

  /** Adds a document, or replaces the one with the same id. */
  replace(id: string, doc: SearchDocument): void {
    this.remove(id);
    this.insert(id, doc);
  }

  /** Removes a document; false when no document has this id. */
  remove(id: string): boolean {
    const s = this.state;
    const num = s.docNums.get(id);
    if (num === undefined) return false;
    this.version++;
    const forward = forwardIndex(s);
    for (const key of forward.get(num)) {
      const list = postingsOf(s, key);
      if (!list) continue;
      removePosting(list, num);
      if (list.length === 0) s.postings[key] = undefined;
    }
    forward.delete(num);
    for (let f = 0; f < s.fields.length; f++) {
      s.totalLength[f]! -= s.lengths[f]![num]!;
      s.lengths[f]![num] = 0;
    }
    s.docIds[num] = undefined;
    s.docNums.delete(id);
    if (s.docIds.length > 1024 && s.docNums.size * 2 < s.docIds.length) compactDocs(s);
    return true;
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const clauses = parseQuery(query, this.analyzer, { stopWords: this.stopWords, synonyms: this.synonyms });
    return this.run(clauses, options);
  }

  /** How a query is understood: its clauses and their weighted alternatives (for explaining). */
  explain(query: string): QueryClause[] {
    return parseQuery(query, this.analyzer, { stopWords: this.stopWords, synonyms: this.synonyms });
  }

  /** A JSON value `loadIndex` restores (query-time behaviour — synonyms, stop words — excluded). */
  toJSON(): SerializedIndex {
    return serializeIndex(this.state);
  }

  /** The same as bytes (binary.ts): loads much faster for a large index; `loadIndexBytes` restores it. */
  toBytes(): Uint8Array {
    return indexToBytes(this.state);
  }

  /** `toBytes()` in parts (their concatenation), to write with other data without a copy. */
  toByteParts(): Uint8Array[] {
    return indexToByteParts(this.state);
  }

  private insert(id: string, doc: SearchDocument): void {
    const s = this.state;
    const num = s.docIds.length;
    this.version++;
    s.docIds.push(id);
    s.docNums.set(id, num);
    const keys: number[] | undefined = s.forward ? [] : undefined;
    const F = s.fields.length;
    for (let f = 0; f < F; f++) {
      const value = doc[s.fields[f]!.name];
      const counts = new Map<string, number>();
      let length = 0;
      const count = (term: string) => {
        length++;
        counts.set(term, (counts.get(term) ?? 0) + 1);
      };
      if (typeof value === 'string') this.analyzer.forEachTerm(value, count);
      else if (Array.isArray(value)) for (const v of value) this.analyzer.forEachTerm(String(v), count);
      pushLength(s, f, num, length);
      for (const [term, tf] of counts) {
        let termId = termIdOf(s, term);
        if (termId === undefined) {
          termId = s.terms.length;
          s.terms.push(term);
          s.termIds.set(term, termId);
        }
        const key = termId * F + f;
        let list = postingsOf(s, key);
        if (!list) {
          list = newPostingList();
          s.postings[key] = list;
        }
        appendPosting(list, num, Math.min(tf, 0xffffffff));
        keys?.push(key);
      }
    }
    if (keys) s.forward?.set(num, keys);
  }

  private run(clauses: QueryClause[], options: SearchOptions): SearchHit[] {
    const s = this.state;
    const limit = Math.max(0, Math.floor(options.limit ?? 10));
    if (clauses.length === 0 || limit === 0 || s.docNums.size === 0) return [];
    const buffers = this.scratch();
    const { total, clause, alt, totalList, clauseList, altList } = buffers;
    let totalCount = 0;
    for (const c of clauses) {
      let clauseCount = 0;
      for (const a of c.alternatives) {
        const w = a.weight / a.terms.length;
        let altCount = 0;
        for (const term of a.terms) altCount = this.scoreTerm(term, w, alt, altList, altCount);
        // The clause keeps each document's best alternative.
        for (let i = 0; i < altCount; i++) {
          const d = altList[i]!;
          const v = alt[d]!;
          alt[d] = 0;
          if (clause[d] === 0) clauseList[clauseCount++] = d;
          if (v > clause[d]!) clause[d] = v;
        }
      }
      for (let i = 0; i < clauseCount; i++) {
        const d = clauseList[i]!;
        if (total[d] === 0) totalList[totalCount++] = d;
        total[d]! += clause[d]!;
        clause[d] = 0;
      }
    }
    const minScore = options.minScore ?? 0;
    const top = new TopK(limit);
    for (let i = 0; i < totalCount; i++) {
      const d = totalList[i]!;
      const score = total[d]!;
      total[d] = 0;
      if (score <= minScore) continue;
      if (options.filter && !options.filter(s.docIds[d]!)) continue;
      top.offer(d, score);
    }
    return top.sorted().map(({ doc, score }) => ({
      id: s.docIds[doc]!,
      score,
      matches: clauses.filter((c) => this.matchesClause(c, doc)).map((c) => c.label),
    }));
  }

  /** Score buffers sized to the document numbers, and the length norms, fresh for this state. */
  private scratch() {
    const capacity = this.state.docIds.length;
    if (!this.buffers || this.buffers.total.length < capacity) {
      const size = Math.max(capacity, (this.buffers?.total.length ?? 0) * 2, 64);
      this.buffers = {
        total: new Float64Array(size),
        clause: new Float64Array(size),
        alt: new Float64Array(size),
        totalList: new Int32Array(size),
        clauseList: new Int32Array(size),
        altList: new Int32Array(size),
        tf: new Float64Array(size),
        tfList: new Int32Array(size),
      };
    }
    if (this.normsVersion !== this.version) {
      this.norms = this.state.fields.map((_, f) => this.lengthNorms(f));
      this.normsVersion = this.version;
    }
    return this.buffers;
  }

  /** Per document, 1 − b + b · len / avglen for field f. */
  private lengthNorms(f: number): Float64Array {
    const s = this.state;
    const avg = s.totalLength[f]! / Math.max(1, s.docNums.size);
    const lengths = s.lengths[f]!;
    const norms = new Float64Array(s.docIds.length);
    for (let d = 0; d < norms.length; d++) norms[d] = avg > 0 ? 1 - s.b + (s.b * lengths[d]!) / avg : 1;
    return norms;
  }

  /**
   * Adds w × BM25F(term) into `acc` for every document containing `term`; documents seen for the
   * first time are appended to `list` from `count` on. Returns the new count.
   */
  private scoreTerm(term: string, w: number, acc: Float64Array, list: Int32Array, count: number): number {
    const s = this.state;
    const termId = termIdOf(s, term);
    if (termId === undefined) return count;
    const F = s.fields.length;
    const { tf: tfs, tfList } = this.buffers!;
    // Pass 1: the term's weighted, length-normalised frequency over all fields, per document.
    let df = 0;
    for (let f = 0; f < F; f++) {
      const postings = postingsOf(s, termId * F + f);
      if (!postings || postings.length === 0) continue;
      const norms = this.norms[f]!;
      const boost = s.fields[f]!.boost;
      const data = postings.data;
      for (let i = 0; i < postings.length; i++) {
        const d = data[i * 2]!;
        if (tfs[d] === 0) tfList[df++] = d;
        tfs[d]! += (boost * data[i * 2 + 1]!) / norms[d]!;
      }
    }
    // Pass 2: one saturation and one idf per document (df = documents with the term anywhere).
    const N = s.docNums.size;
    const k1 = s.k1;
    const scale = w * Math.log(1 + (N - df + 0.5) / (df + 0.5)) * (k1 + 1);
    let n = count;
    for (let i = 0; i < df; i++) {
      const d = tfList[i]!;
      const t = tfs[d]!;
      tfs[d] = 0;
      if (acc[d] === 0) list[n++] = d;
      acc[d]! += (scale * t) / (t + k1);
    }
    return n;
  }

  private matchesClause(c: QueryClause, doc: number): boolean {
    const s = this.state;
    const F = s.fields.length;
    for (const a of c.alternatives) {
      for (const term of a.terms) {
        const termId = termIdOf(s, term);
        if (termId === undefined) continue;
        for (let f = 0; f < F; f++) {
          const list = postingsOf(s, termId * F + f);
          if (list && findPosting(list, doc) >= 0) return true;
        }
      }
    }
    return false;
  }
}

export function createIndex(options: IndexOptions): SearchIndex {
  const fields = Object.entries(options.fields).map(([name, o]) => ({ name, boost: o.boost ?? 1 }));
  if (fields.length === 0) throw new Error('search index: at least one field is needed');
  for (const f of fields) {
    if (!(Number.isFinite(f.boost) && f.boost > 0)) {
      throw new Error(`search index: field "${f.name}" needs a positive boost`);
    }
  }
  const k1 = options.k1 ?? DEFAULT_K1;
  const b = options.b ?? DEFAULT_B;
  if (!(Number.isFinite(k1) && k1 >= 0)) throw new Error('search index: k1 must be a number ≥ 0');
  if (!(Number.isFinite(b) && b >= 0 && b <= 1)) throw new Error('search index: b must be between 0 and 1');
  return new SearchIndex(newState(fields, k1, b, options.stem !== false), options);
}
