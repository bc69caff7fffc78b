/**
 * Posting lists: for one (term, field), the documents that contain the term and how often, as
 * interleaved `doc, tf` pairs in one growable Uint32Array, sorted by document number (documents
 * are numbered in insertion order, so adding only appends). Plus the varint codec the serialised
 * index stores them in.
 */

export interface PostingList {
  /** `[doc0, tf0, doc1, tf1, …]`; only the first `2 * length` entries are meaningful. */
  data: Uint32Array;
  length: number;
}

export function newPostingList(capacity = 2): PostingList {
  return { data: new Uint32Array(capacity * 2), length: 0 };
}

/** Appends a posting; `doc` must be greater than every document already in the list. */
export function appendPosting(list: PostingList, doc: number, tf: number): void {
  if (list.length * 2 === list.data.length) {
    // ×1.5: long lists waste less than with doubling, short ones still grow in few steps.
    const grown = new Uint32Array(Math.max(4, Math.ceil(list.data.length * 0.75) * 2));
    grown.set(list.data);
    list.data = grown;
  }
  list.data[list.length * 2] = doc;
  list.data[list.length * 2 + 1] = tf;
  list.length++;
}

/** The index of `doc` in the list, or -1 (binary search). */
export function findPosting(list: PostingList, doc: number): number {
  let lo = 0;
  let hi = list.length - 1;
  const data = list.data;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const d = data[mid * 2]!;
    if (d === doc) return mid;
    if (d < doc) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Removes `doc` from the list; false when it was not there. */
export function removePosting(list: PostingList, doc: number): boolean {
  const at = findPosting(list, doc);
  if (at < 0) return false;
  list.data.copyWithin(at * 2, at * 2 + 2, list.length * 2);
  list.length--;
  // Give memory back when a list shrinks to a quarter of its capacity.
  if (list.data.length > 8 && list.length * 8 <= list.data.length) {
    list.data = list.data.slice(0, Math.max(4, list.length * 4));
  }
  return true;
}

/** Growable byte buffer for LEB128 varints. */
export class ByteWriter {
  private bytes = new Uint8Array(1 << 16);
  length = 0;

  varint(value: number): void {
    if (this.length + 5 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    let v = value >>> 0;
    while (v >= 0x80) {
      this.bytes[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.bytes[this.length++] = v;
  }

  result(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

/** Reads LEB128 varints from `bytes[pos..end)`; throws on truncated or over-long input. */
export class ByteReader {
  constructor(
    private readonly bytes: Uint8Array,
    public pos: number,
    private readonly end: number,
  ) {}

  varint(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) throw new RangeError('posting data ends in the middle of a number');
      const byte = this.bytes[this.pos++]!;
      if (shift === 28 && byte > 0x0f) throw new RangeError('posting data holds a number over 32 bits');
      result += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return result;
      shift += 7;
    }
  }

  get done(): boolean {
    return this.pos >= this.end;
  }
}
