/**
 * Output truncation shared by tools whose results go to the model (run_shell, fetch, MCP results):
 * one wording for the note, so the model learns to recognise it. Given a redactor, text is redacted
 * before it is cut, so a secret straddling the cut is replaced whole instead of leaving its prefix.
 */
import type { Redactor } from './redact.js';

/** The line appended when output was cut; `total` is the full length in characters. */
export function truncationNote(total: number): string {
  return `(output truncated, ${total} chars in total)`;
}

/** `text` cut to `limit` chars, with the truncation note on its own line when anything was cut. */
export function truncate(text: string, limit: number, redact?: Redactor): string {
  if (text.length <= limit) return redact ? redact(text) : text;
  const kept = redact ? redact.head(text, limit) : text.slice(0, limit);
  return `${kept}\n${truncationNote(text.length)}`;
}

/**
 * Keeps the first `limit` chars of a stream of text chunks plus the total length, so a chatty
 * producer (a shell command) never costs more memory than what is shown. With a redactor it keeps
 * as many chars again as the longest secret, so one that straddles the limit is still recognised.
 */
export class BoundedText {
  private head = '';
  private count = 0;
  private readonly keep: number;

  constructor(
    private readonly limit: number,
    private readonly redact?: Redactor,
  ) {
    this.keep = limit + (redact?.reach ?? 0);
  }

  push(chunk: string): void {
    this.count += chunk.length;
    if (this.head.length < this.keep) this.head += chunk.slice(0, this.keep - this.head.length);
  }

  get total(): number {
    return this.count;
  }

  /** The kept text, with the truncation note when the stream was longer than the limit. */
  toString(): string {
    if (this.count <= this.limit) return this.redact ? this.redact(this.head) : this.head;
    const kept = this.redact ? this.redact.head(this.head, this.limit) : this.head.slice(0, this.limit);
    return `${kept}\n${truncationNote(this.count)}`;
  }
}
