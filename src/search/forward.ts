/**
 * The forward index: per document number, the posting keys it appears under, so a document can
 * be removed without re-analysing its text. All keys live in one growable arena (a typed array
 * per document would cost more in object headers than in data); a removed document's slots are
 * garbage until the arena is rebuilt, which happens once garbage outweighs live keys.
 */
import type { PostingList } from './postings.js';

export class ForwardIndex {
  private arena = new Uint32Array(1024);
  private used = 0;
  private garbage = 0;
  private start = new Float64Array(64);
  private count = new Uint32Array(64);

  /** Records `keys` for `doc` (a document number not recorded yet). */
  set(doc: number, keys: ArrayLike<number>): void {
    if (doc >= this.count.length) {
      const size = Math.max(doc + 1, this.count.length * 2);
      const start = new Float64Array(size);
      start.set(this.start);
      this.start = start;
      const count = new Uint32Array(size);
      count.set(this.count);
      this.count = count;
    }
    if (this.used + keys.length > this.arena.length) {
      const arena = new Uint32Array(Math.max(this.used + keys.length, this.arena.length * 2));
      arena.set(this.arena.subarray(0, this.used));
      this.arena = arena;
    }
    this.start[doc] = this.used;
    this.count[doc] = keys.length;
    for (let i = 0; i < keys.length; i++) this.arena[this.used++] = keys[i]!;
  }

  get(doc: number): Uint32Array {
    if (doc >= this.count.length) return new Uint32Array(0);
    return this.arena.subarray(this.start[doc]!, this.start[doc]! + this.count[doc]!);
  }

  delete(doc: number): void {
    if (doc >= this.count.length) return;
    this.garbage += this.count[doc]!;
    this.count[doc] = 0;
    if (this.garbage > 4096 && this.garbage * 2 > this.used) this.renumber((d) => d);
  }

  /** Moves every document to `map(doc)` (−1 drops it) and packs the arena. */
  renumber(map: (doc: number) => number): void {
    const old = { arena: this.arena, start: this.start, count: this.count };
    this.arena = new Uint32Array(Math.max(1024, this.used - this.garbage));
    this.start = new Float64Array(old.count.length);
    this.count = new Uint32Array(old.count.length);
    this.used = 0;
    this.garbage = 0;
    for (let doc = 0; doc < old.count.length; doc++) {
      const n = old.count[doc]!;
      const to = map(doc);
      if (n === 0 || to < 0) continue;
      const from = old.start[doc]!;
      this.set(to, old.arena.subarray(from, from + n));
    }
  }

  /** Built from posting lists (after a load): a count pass, then a fill pass. */
  static fromPostings(postings: readonly (PostingList | undefined)[], docs: number): ForwardIndex {
    const forward = new ForwardIndex();
    const count = new Uint32Array(Math.max(64, docs));
    let total = 0;
    for (const list of postings) {
      if (!list) continue;
      for (let i = 0; i < list.length; i++) count[list.data[i * 2]!]!++;
      total += list.length;
    }
    const start = new Float64Array(count.length);
    let at = 0;
    for (let d = 0; d < docs; d++) {
      start[d] = at;
      at += count[d]!;
    }
    const arena = new Uint32Array(Math.max(1024, total));
    const fill = new Float64Array(start);
    postings.forEach((list, key) => {
      if (!list) return;
      for (let i = 0; i < list.length; i++) arena[fill[list.data[i * 2]!]!++] = key;
    });
    forward.arena = arena;
    forward.used = total;
    forward.start = start;
    forward.count = count;
    return forward;
  }
}
