/**
 * Output truncation shared by tools whose results go to the model (run_shell, fetch, MCP results):
 * one wording for the note, so the model learns to recognise it.
 */

/** The line appended when output was cut; `total` is the full length in characters. */
export function truncationNote(total: number): string {
  return `(output truncated, ${total} chars in total)`;
}

/** `text` cut to `limit` chars, with the truncation note on its own line when anything was cut. */
export function truncate(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n${truncationNote(text.length)}`;
}

/**
 * Keeps the first `limit` chars of a stream of text chunks plus the total length, so a chatty
 * producer (a shell command) never costs more memory than what is shown.
 */
export class BoundedText {
  private head = '';
  private count = 0;

  constructor(private readonly limit: number) {}

  push(chunk: string): void {
    this.count += chunk.length;
    if (this.head.length < this.limit) this.head += chunk.slice(0, this.limit - this.head.length);
  }

  get total(): number {
    return this.count;
  }

  /** The kept text, with the truncation note when the stream was longer than the limit. */
  toString(): string {
    return this.count > this.limit ? `${this.head}\n${truncationNote(this.count)}` : this.head;
  }
}
