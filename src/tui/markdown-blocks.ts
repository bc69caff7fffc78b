/**
 * Cuts streamed Markdown into completed blocks and the unfinished tail, incrementally: each call
 * scans only the text added since the last, so a growing answer is parsed per completed block
 * (each block lexed once, by its memoised view) instead of the whole answer per token. A block
 * ends at a blank line outside a code fence, unless the next line is indented (a list item's or
 * a code block's continuation).
 */

export interface Blocks {
  /** Completed blocks, each with its trailing blank lines; append-only while the text grows. */
  done: readonly string[];
  /** The text after the last completed block, still growing. */
  tail: string;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export class BlockSplitter {
  private text = '';
  private readonly done: string[] = [];
  /** Where the unfinished block starts, and where scanning resumes (a line start). */
  private blockStart = 0;
  private scanned = 0;
  private fence: string | undefined;
  /** A blank line was seen: the block ends there if the next line is not indented. */
  private boundary: number | undefined;

  /** The blocks of `text`; when it does not extend the previous text, starts over. */
  update(text: string): Blocks {
    if (!extends_(text, this.text)) this.reset();
    this.text = text;
    let at = this.scanned;
    for (;;) {
      const end = text.indexOf('\n', at);
      if (end < 0) break;
      this.line(text.slice(at, end), at, end + 1);
      at = end + 1;
    }
    this.scanned = at;
    return { done: this.done, tail: text.slice(this.blockStart) };
  }

  private line(line: string, start: number, next: number): void {
    if (this.fence !== undefined) {
      const close = FENCE.exec(line)?.[1];
      if (close && close[0] === this.fence[0] && close.length >= this.fence.length && line.trim() === close) {
        this.fence = undefined;
      }
      return;
    }
    if (line.trim() === '') {
      this.boundary ??= next;
      return;
    }
    if (this.boundary !== undefined && !/^[ \t]/.test(line)) {
      this.done.push(this.text.slice(this.blockStart, start));
      this.blockStart = start;
    }
    this.boundary = undefined;
    const open = FENCE.exec(line)?.[1];
    if (open) this.fence = open;
  }

  private reset(): void {
    this.text = '';
    this.done.length = 0;
    this.blockStart = 0;
    this.scanned = 0;
    this.fence = undefined;
    this.boundary = undefined;
  }
}

/** Compared at their ends, not in full: streamed text only grows, and this runs every frame on megabytes. */
const PROBE = 256;

/** Whether `text` continues `before` (probed at the start and at the end of `before`). */
function extends_(text: string, before: string): boolean {
  if (text.length < before.length) return false;
  if (before.length <= 2 * PROBE) return text.startsWith(before);
  return (
    text.startsWith(before.slice(0, PROBE)) &&
    text.startsWith(before.slice(before.length - PROBE), before.length - PROBE)
  );
}
