/**
 * The k best (document, score) pairs of a stream, with a min-heap: O(n log k) instead of sorting
 * every matching document. Ties go to the earlier document, so results are deterministic.
 */
export interface Scored {
  doc: number;
  score: number;
}

/** a ranks below b */
function worse(a: Scored, b: Scored): boolean {
  return a.score < b.score || (a.score === b.score && a.doc > b.doc);
}

export class TopK {
  private readonly heap: Scored[] = [];

  constructor(private readonly k: number) {}

  offer(doc: number, score: number): void {
    const item = { doc, score };
    const heap = this.heap;
    if (heap.length < this.k) {
      heap.push(item);
      this.up(heap.length - 1);
    } else if (this.k > 0 && worse(heap[0]!, item)) {
      heap[0] = item;
      this.down(0);
    }
  }

  /** Best first. */
  sorted(): Scored[] {
    return [...this.heap].sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
  }

  private up(i: number): void {
    const heap = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private down(i: number): void {
    const heap = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let least = i;
      if (l < heap.length && worse(heap[l]!, heap[least]!)) least = l;
      if (r < heap.length && worse(heap[r]!, heap[least]!)) least = r;
      if (least === i) return;
      [heap[i], heap[least]] = [heap[least]!, heap[i]!];
      i = least;
    }
  }
}
