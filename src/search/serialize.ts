/**
 * A search index to and from a JSON value. Compact: the postings of every (term, field) are
 * delta-coded varints in one base64 string, so loading is one JSON.parse plus one linear decode
 * (no per-posting objects). The stored file lives in the project folder, so it is untrusted:
 * decoding checks every count, number and offset and throws `SearchIndexFormatError` (never
 * crashes, never loops on garbage); a file from another analyzer version is refused the same way
 * so its owner rebuilds it.
 */
import type { IndexState } from './index-state.js';
import { ByteReader, ByteWriter, type PostingList } from './postings.js';
import { ANALYZER_VERSION } from './tokenizer.js';

export const INDEX_FORMAT = 'geekagent-search-index';
export const INDEX_VERSION = 1;

export interface SerializedIndex {
  format: typeof INDEX_FORMAT;
  version: typeof INDEX_VERSION;
  /** The analysis the terms came from (tokenizer + stemmer version). */
  analyzer: string;
  k1: number;
  b: number;
  stem: boolean;
  fields: { name: string; boost: number }[];
  /** Live document ids in document-number order. */
  ids: string[];
  /** Terms that have postings, in term-number order. */
  terms: string[];
  /** base64 varints: per field, per document, its length in terms. */
  lengths: string;
  /** base64 varints: per term, per field, a count then `count` × (doc delta, tf). */
  postings: string;
}

export class SearchIndexFormatError extends Error {
  override name = 'SearchIndexFormatError';
}

export function serializeIndex(s: IndexState): SerializedIndex {
  // Live documents renumbered densely (numbers only grow, so posting order is kept).
  const remap = new Int32Array(s.docIds.length).fill(-1);
  const ids: string[] = [];
  s.docIds.forEach((id, num) => {
    if (id === undefined) return;
    remap[num] = ids.length;
    ids.push(id);
  });
  const F = s.fields.length;
  const lengths = new ByteWriter();
  for (let f = 0; f < F; f++) {
    const fieldLengths = s.lengths[f]!;
    s.docIds.forEach((id, num) => {
      if (id !== undefined) lengths.varint(fieldLengths[num]!);
    });
  }
  const terms: string[] = [];
  const postings = new ByteWriter();
  s.terms.forEach((term, termId) => {
    let any = false;
    for (let f = 0; f < F; f++) if ((s.postings[termId * F + f]?.length ?? 0) > 0) any = true;
    if (!any) return;
    terms.push(term);
    for (let f = 0; f < F; f++) {
      const list = s.postings[termId * F + f];
      const n = list?.length ?? 0;
      postings.varint(n);
      let previous = -1;
      for (let i = 0; i < n; i++) {
        const doc = remap[list!.data[i * 2]!]!;
        postings.varint(doc - previous - 1);
        postings.varint(list!.data[i * 2 + 1]!);
        previous = doc;
      }
    }
  });
  return {
    format: INDEX_FORMAT,
    version: INDEX_VERSION,
    analyzer: ANALYZER_VERSION,
    k1: s.k1,
    b: s.b,
    stem: s.stem,
    fields: s.fields.map((f) => ({ name: f.name, boost: f.boost })),
    ids,
    terms,
    lengths: toBase64(lengths.result()),
    postings: toBase64(postings.result()),
  };
}

function fail(problem: string): never {
  throw new SearchIndexFormatError(`not a usable search index: ${problem}`);
}

/** The state of `serializeIndex`'s value (e.g. `JSON.parse` of a stored file), boosts overridable. */
export function decodeIndexState(
  value: unknown,
  boosts: Readonly<Record<string, { boost?: number }>> = {},
): IndexState {
  if (typeof value !== 'object' || value === null) fail('not a JSON object');
  const v = value as Partial<Record<keyof SerializedIndex, unknown>>;
  if (v.format !== INDEX_FORMAT) fail(`format is not "${INDEX_FORMAT}"`);
  if (v.version !== INDEX_VERSION) fail(`version ${String(v.version)} is not ${INDEX_VERSION}`);
  if (v.analyzer !== ANALYZER_VERSION) {
    fail(`built by analyzer ${String(v.analyzer)}, this version uses ${ANALYZER_VERSION}; rebuild it`);
  }
  const k1 = v.k1;
  const b = v.b;
  if (typeof k1 !== 'number' || !Number.isFinite(k1) || k1 < 0) fail('k1 is not a number ≥ 0');
  if (typeof b !== 'number' || !Number.isFinite(b) || b < 0 || b > 1) fail('b is not between 0 and 1');
  if (typeof v.stem !== 'boolean') fail('stem is not true or false');
  if (!Array.isArray(v.fields) || v.fields.length === 0) fail('fields is not a non-empty list');
  const fields = v.fields.map((field: unknown) => {
    const f = field as { name?: unknown; boost?: unknown };
    if (typeof f?.name !== 'string') fail('a field has no name');
    const boost = boosts[f.name]?.boost ?? f.boost;
    if (typeof boost !== 'number' || !Number.isFinite(boost) || boost <= 0) {
      fail(`field "${f.name}" has no positive boost`);
    }
    return { name: f.name, boost };
  });
  if (new Set(fields.map((f) => f.name)).size !== fields.length) fail('two fields have the same name');
  const ids = stringList(v.ids, 'ids');
  const docNums = new Map<string, number>();
  for (let num = 0; num < ids.length; num++) docNums.set(ids[num]!, num);
  if (docNums.size !== ids.length) fail('two documents have the same id');
  const terms = stringList(v.terms, 'terms');
  const termIds = new Map<string, number>();
  for (let id = 0; id < terms.length; id++) termIds.set(terms[id]!, id);
  if (termIds.size !== terms.length) fail('a term is listed twice');

  const D = ids.length;
  const F = fields.length;
  const lengthBytes = base64(v.lengths, 'lengths');
  const lengthReader = new ByteReader(lengthBytes, 0, lengthBytes.length);
  const lengths: Uint32Array[] = [];
  const totalLength: number[] = [];
  decoding('lengths', () => {
    for (let f = 0; f < F; f++) {
      const fieldLengths = new Uint32Array(Math.max(64, D));
      let sum = 0;
      for (let d = 0; d < D; d++) {
        fieldLengths[d] = lengthReader.varint();
        sum += fieldLengths[d]!;
      }
      lengths.push(fieldLengths);
      totalLength.push(sum);
    }
    if (!lengthReader.done) fail('lengths has data past its end');
  });

  const postings = decodePostings(base64(v.postings, 'postings'), terms, F, D);

  return {
    fields,
    k1,
    b,
    stem: v.stem,
    docIds: ids,
    docNums,
    lengths,
    totalLength,
    terms,
    termIds,
    postings,
    forward: undefined,
  };
}

/**
 * All postings into one Uint32Array, each (term, field) list a view of it: no per-posting
 * objects. Two tight loops with only local variables (this is the load time): every varint to a
 * number, then per key `n, (doc delta, tf) × n` turned into absolute document numbers in place.
 */
function decodePostings(
  bytes: Uint8Array,
  terms: string[],
  F: number,
  D: number,
): (PostingList | undefined)[] {
  // Exactly one number ends at each byte without the continuation bit.
  let total = 0;
  for (let pos = 0; pos < bytes.length; pos++) if (bytes[pos]! < 0x80) total++;
  const numbers = new Uint32Array(total);
  let count = 0;
  let value = 0;
  let shift = 0;
  for (let pos = 0; pos < bytes.length; pos++) {
    const byte = bytes[pos]!;
    if (shift === 28 && byte > 0x0f) fail('postings: a number is over 32 bits');
    value |= (byte & 0x7f) << shift; // an int32; the Uint32Array store reads it back unsigned
    if (byte < 0x80) {
      numbers[count++] = value;
      value = 0;
      shift = 0;
    } else shift += 7;
  }
  if (shift !== 0) fail('postings: the data ends in the middle of a number');
  const keys = terms.length * F;
  const postings: (PostingList | undefined)[] = new Array(keys);
  let at = 0;
  for (let key = 0; key < keys; key++) {
    if (at >= count) fail('postings: the data ends before the last term');
    const n = numbers[at++]!;
    if (n === 0) continue;
    if (n > D) fail(`term "${terms[Math.floor(key / F)]}" is in more documents than there are`);
    if (at + 2 * n > count) fail('postings: the data ends in the middle of a list');
    let doc = -1;
    for (let i = at; i < at + 2 * n; i += 2) {
      doc += numbers[i]! + 1;
      numbers[i] = doc;
    }
    if (doc >= D) fail('a posting names a document that does not exist');
    postings[key] = { data: numbers.subarray(at, at + 2 * n), length: n };
    at += 2 * n;
  }
  if (at !== count) fail('postings has data past its end');
  return postings;
}

/** Base64 of the bytes without copying them into a Buffer first. */
const toBase64 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64');

function stringList(value: unknown, name: string): string[] {
  if (!Array.isArray(value)) fail(`${name} is not a list`);
  for (const item of value) if (typeof item !== 'string') fail(`${name} holds a non-string`);
  return value as string[];
}

function base64(value: unknown, name: string): Uint8Array {
  if (typeof value !== 'string') fail(`${name} is not a string`);
  const bytes = Buffer.from(value, 'base64');
  // Buffer skips characters that are not base64: a decoded length short of the text's shows them.
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  if (value.length % 4 !== 0 || bytes.length !== (value.length / 4) * 3 - padding)
    fail(`${name} is not base64`);
  return bytes;
}

/** Turns a decoder's RangeError into the format error, naming the part. */
function decoding(part: string, body: () => void): void {
  try {
    body();
  } catch (error) {
    if (error instanceof RangeError) fail(`${part}: ${error.message}`);
    throw error;
  }
}
