/**
 * Splits a server's stdout into newline-terminated lines in linear time. A line that arrives in one
 * chunk is handed on without a copy; one that spans chunks is copied, piece by piece as it arrives,
 * into a single reusable assembly buffer: the copy overlaps the transfer, and a warm buffer spares
 * the page faults of a fresh multi-MB allocation on every large result. The buffer is let go after
 * a quiet spell so a single large result does not pin its memory. Lines over the limit are skipped,
 * keeping only their edges so the caller can still find the response's id.
 */

export interface SkippedLine {
  bytes: number;
  /** The first EDGE bytes of the line. */
  head: Buffer;
  /** The last EDGE bytes of the line. */
  tail: Buffer;
}

export interface LineFramerEvents {
  /** `bytes` is only valid during the call: the buffer behind it is reused. */
  line(bytes: Buffer): void;
  oversized(skipped: SkippedLine): void;
}

export interface LineFramerOptions {
  maxLineBytes: number;
  /** How long a quiet framer keeps its assembly buffer. */
  releaseAfterMs?: number;
}

const NEWLINE = 0x0a;
/** Bytes kept of each end of an oversized line: enough to find its JSON-RPC id. */
export const EDGE = 256;
const MIN_ASSEMBLY = 64 * 1024;
const RELEASE_AFTER_MS = 5000;

export class LineFramer {
  private assembly: Buffer | undefined;
  /** Bytes of the unfinished line held in `assembly`. */
  private filled = 0;
  private skipping: SkippedLine | undefined;
  private releaseTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly events: LineFramerEvents,
    private readonly options: LineFramerOptions,
  ) {}

  /** Bytes of memory the framer holds on to between lines. */
  get retainedBytes(): number {
    return this.assembly?.length ?? 0;
  }

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      this.take(chunk.subarray(start, nl), true);
      start = nl + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start), false);
  }

  /** Drops any unfinished line and the assembly buffer. */
  reset(): void {
    this.filled = 0;
    this.skipping = undefined;
    this.release();
  }

  private take(piece: Buffer, endsLine: boolean): void {
    const max = this.options.maxLineBytes;
    if (!this.skipping && this.filled + piece.length > max) {
      // The line's start is in the assembly buffer if it spans chunks, else in this piece.
      const start = this.filled > 0 ? this.assembly!.subarray(0, this.filled) : piece;
      this.skipping = {
        bytes: this.filled,
        head: Buffer.from(start.subarray(0, EDGE)),
        tail: Buffer.alloc(0),
      };
      this.filled = 0;
    }
    const skipped = this.skipping;
    if (skipped) {
      skipped.bytes += piece.length;
      skipped.tail = Buffer.from(Buffer.concat([skipped.tail, piece.subarray(-EDGE)]).subarray(-EDGE));
      if (!endsLine) return;
      this.skipping = undefined;
      this.events.oversized(skipped);
      return;
    }
    if (endsLine && this.filled === 0) {
      this.events.line(piece);
      return;
    }
    this.append(piece);
    if (!endsLine) return;
    const line = this.assembly!.subarray(0, this.filled);
    this.filled = 0;
    this.scheduleRelease();
    this.events.line(line);
  }

  private append(piece: Buffer): void {
    const needed = this.filled + piece.length;
    const current = this.assembly;
    if (!current || current.length < needed) {
      const size = Math.max(
        needed,
        Math.min(this.options.maxLineBytes, Math.max(MIN_ASSEMBLY, (current?.length ?? 0) * 2)),
      );
      const grown = Buffer.allocUnsafeSlow(size);
      if (current && this.filled > 0) current.copy(grown, 0, 0, this.filled);
      this.assembly = grown;
    }
    piece.copy(this.assembly!, this.filled);
    this.filled = needed;
  }

  private scheduleRelease(): void {
    if (this.releaseTimer) {
      this.releaseTimer.refresh();
      return;
    }
    this.releaseTimer = setTimeout(() => {
      this.releaseTimer = undefined;
      // A line in progress keeps its buffer; finishing it schedules the release again.
      if (this.filled === 0) this.assembly = undefined;
    }, this.options.releaseAfterMs ?? RELEASE_AFTER_MS);
    this.releaseTimer.unref();
  }

  private release(): void {
    clearTimeout(this.releaseTimer);
    this.releaseTimer = undefined;
    this.assembly = undefined;
  }
}
