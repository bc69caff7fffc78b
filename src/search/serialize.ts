/**
 * A search index to and from a JSON value. Compact: the postings of every (term, field) are
 * delta-coded varints in one base64 string, terms sorted; loading is JSON.parse, one pass that
 * finds where each list starts, and no term map (binary search) — each list is decoded the first
 * time it is read. The stored file lives in the project folder, so it is untrusted: every count,
 * number and offset is checked (at load, or when a list is first decoded) and a problem throws
 * `SearchIndexFormatError`, never a crash or a hang; a file from another analyzer version is
 * refused the same way so its owner rebuilds it.
 */
import { formatError as fail, SearchIndexFormatError } from './format-error.js';
import { DocNumbers, type IndexState, postingsOf } from './index-state.js';
import { ByteReader, ByteWriter } from './postings.js';
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
  /** Terms that have postings, sorted (a load looks them up by binary search). */
  terms: string[];
  /** base64 varints: per field, per document, its length in terms. */
  lengths: string;
  /** base64 varints: per term, per field, a count then `count` × (doc delta, tf). */
  postings: string;
}

export { SearchIndexFormatError };

/** The parts of a serialised index: the JSON form base64s the bytes, the binary form stores them. */
export interface IndexParts {
  header: Omit<SerializedIndex, 'ids' | 'terms' | 'lengths' | 'postings'>;
  ids: string[];
  terms: string[];
  lengths: Uint8Array;
  postings: Uint8Array;
  /** Per key, the byte length of its postings (the binary form stores it: no scan at load). */
  listSizes: Uint8Array;
}

export function serializeIndex(s: IndexState): SerializedIndex {
  const { header, ids, terms, lengths, postings } = serializeParts(s);
  return { ...header, ids, terms, lengths: toBase64(lengths), postings: toBase64(postings) };
}

export function serializeParts(s: IndexState): IndexParts {
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
  const present: number[] = [];
  for (let termId = 0; termId < s.terms.length; termId++) {
    for (let f = 0; f < F; f++) {
      if ((postingsOf(s, termId * F + f)?.length ?? 0) > 0) {
        present.push(termId);
        break;
      }
    }
  }
  present.sort((a, b) => (s.terms[a]! < s.terms[b]! ? -1 : 1));
  const terms = present.map((termId) => s.terms[termId]!);
  const postings = new ByteWriter();
  const listSizes = new ByteWriter();
  for (const termId of present) {
    for (let f = 0; f < F; f++) {
      const start = postings.length;
      const list = postingsOf(s, termId * F + f);
      const n = list?.length ?? 0;
      postings.varint(n);
      let previous = -1;
      for (let i = 0; i < n; i++) {
        const doc = remap[list!.data[i * 2]!]!;
        postings.varint(doc - previous - 1);
        postings.varint(list!.data[i * 2 + 1]!);
        previous = doc;
      }
      listSizes.varint(postings.length - start);
    }
  }
  return {
    header: {
      format: INDEX_FORMAT,
      version: INDEX_VERSION,
      analyzer: ANALYZER_VERSION,
      k1: s.k1,
      b: s.b,
      stem: s.stem,
      fields: s.fields.map((f) => ({ name: f.name, boost: f.boost })),
    },
    ids,
    terms,
    lengths: lengths.result(),
    postings: postings.result(),
    listSizes: listSizes.result(),
  };
}

/** The state of `serializeIndex`'s value (e.g. `JSON.parse` of a stored file), boosts overridable. */
export function decodeIndexState(
  value: unknown,
  boosts: Readonly<Record<string, { boost?: number }>> = {},
): IndexState {
  if (typeof value !== 'object' || value === null) fail('not a JSON object');
  const v = value as Partial<Record<keyof SerializedIndex, unknown>>;
  return decodeParts(
    v,
    boosts,
    () => ({ ids: stringList(v.ids, 'ids'), terms: stringList(v.terms, 'terms') }),
    () => ({ lengths: base64(v.lengths, 'lengths'), postings: base64(v.postings, 'postings') }),
  );
}

/**
 * The state from a header's values (checked here), then the id and term lists, then the two byte
 * sections, each read only once what comes before is checked. Shared by the JSON form and the
 * binary one (binary.ts).
 */
export function decodeParts(
  v: Partial<Record<keyof SerializedIndex, unknown>>,
  boosts: Readonly<Record<string, { boost?: number }>>,
  lists: () => { ids: string[]; terms: string[] },
  sections: () => { lengths: Uint8Array; postings: Uint8Array; listSizes?: Uint8Array },
  lazyIds = false,
): IndexState {
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
  const { ids, terms } = lists();
  const docNums = new DocNumbers(ids);
  if (!lazyIds) docNums.built();
  for (let i = 1; i < terms.length; i++) {
    if (!(terms[i - 1]! < terms[i]!)) fail('terms are not sorted, or one is listed twice');
  }

  const D = ids.length;
  const F = fields.length;
  const { lengths: lengthBytes, postings: bytes, listSizes } = sections();
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

  const keys = terms.length * F;

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
    sortedTerms: terms.length,
    termIds: new Map(),
    postings: new Array(keys),
    frozen: {
      bytes,
      offsets: listSizes ? offsetsFromSizes(listSizes, keys, bytes.length) : postingOffsets(bytes, keys, D),
      keys,
      docs: D,
    },
    forward: undefined,
  };
}

/**
 * Where each key's postings start, found by skipping varints (a byte without the continuation bit
 * ends one) without decoding them: loading stays a single fast pass, and each list is decoded
 * (and checked) the first time a search or a change reads it (`postingsOf`).
 */
function postingOffsets(bytes: Uint8Array, keys: number, D: number): Float64Array {
  const offsets = new Float64Array(keys + 1);
  const end = bytes.length;
  let pos = 0;
  for (let key = 0; key < keys; key++) {
    offsets[key] = pos;
    let n = 0;
    for (let shift = 0; ; shift += 7) {
      if (pos >= end) fail('postings: the data ends before the last term');
      const byte = bytes[pos++]!;
      if (shift === 28 && byte > 0x0f) fail('postings: a number is over 32 bits');
      n += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) break;
    }
    if (n > D) fail('postings: a term is in more documents than there are');
    // Skip 2n varints.
    for (let left = 2 * n; left > 0; left--) {
      while (pos < end && bytes[pos]! >= 0x80) pos++;
      if (pos >= end) fail('postings: the data ends in the middle of a list');
      pos++;
    }
  }
  offsets[keys] = pos;
  if (pos !== end) fail('postings has data past its end');
  return offsets;
}

/** The same offsets from stored list sizes; each list is still checked when first decoded. */
function offsetsFromSizes(sizes: Uint8Array, keys: number, total: number): Float64Array {
  const offsets = new Float64Array(keys + 1);
  const reader = new ByteReader(sizes, 0, sizes.length);
  decoding('list sizes', () => {
    let pos = 0;
    for (let key = 0; key < keys; key++) {
      offsets[key] = pos;
      pos += reader.varint();
    }
    offsets[keys] = pos;
    if (!reader.done) fail('list sizes has data past its end');
    if (pos !== total) fail('list sizes do not add up to the postings');
  });
  return offsets;
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
