/**
 * One server's stderr (and the agent's notes about it): a bounded in-memory ring of recent lines
 * for `/mcp logs`, plus a log file under `.geekagent/logs/`. Never blocks and never grows without
 * bound: when the file stream is backed up, lines are dropped and counted.
 */
import { createWriteStream, mkdirSync, renameSync, type WriteStream } from 'node:fs';
import path from 'node:path';

const MAX_LINE_CHARS = 4000;

export interface ServerLogOptions {
  maxLines?: number;
  maxFileBytes?: number;
}

export class ServerLog {
  private readonly ring: string[] = [];
  private readonly maxLines: number;
  private readonly maxFileBytes: number;
  private stream: WriteStream | undefined;
  private fileBytes = 0;
  private backedUp = false;
  private dropped = 0;
  private pendingDropNote = 0;
  private failed = false;
  private closed = false;

  constructor(
    readonly server: string,
    private readonly file: string | undefined,
    options: ServerLogOptions = {},
  ) {
    this.maxLines = options.maxLines ?? 200;
    this.maxFileBytes = options.maxFileBytes ?? 5 * 1024 * 1024;
  }

  get droppedLines(): number {
    return this.dropped;
  }

  append(rawLine: string): void {
    const line = rawLine.length > MAX_LINE_CHARS ? `${rawLine.slice(0, MAX_LINE_CHARS)}… (line cut)` : rawLine;
    this.ring.push(line);
    if (this.ring.length > this.maxLines) this.ring.splice(0, this.ring.length - this.maxLines);
    this.writeToFile(line);
  }

  tail(count = 50): string[] {
    return this.ring.slice(-count);
  }

  async close(): Promise<void> {
    this.closed = true;
    const stream = this.stream;
    this.stream = undefined;
    if (!stream) return;
    await new Promise<void>((resolve) => stream.end(() => resolve()));
  }

  private writeToFile(line: string): void {
    if (!this.file || this.failed || this.closed) return;
    const stream = this.stream ?? this.open();
    if (!stream) return;
    if (this.backedUp) {
      this.dropped++;
      this.pendingDropNote++;
      return;
    }
    let text = `${new Date().toISOString()} ${line}\n`;
    if (this.pendingDropNote > 0) {
      text = `[${this.pendingDropNote} lines dropped]\n${text}`;
      this.pendingDropNote = 0;
    }
    this.fileBytes += Buffer.byteLength(text);
    if (!stream.write(text)) {
      this.backedUp = true;
      stream.once('drain', () => {
        this.backedUp = false;
      });
    }
    if (this.fileBytes >= this.maxFileBytes) this.rotate(stream);
  }

  private open(): WriteStream | undefined {
    try {
      mkdirSync(path.dirname(this.file!), { recursive: true });
      const stream = createWriteStream(this.file!, { flags: 'a' });
      stream.on('error', () => {
        this.failed = true;
      });
      this.stream = stream;
      this.fileBytes = 0;
      return stream;
    } catch {
      this.failed = true;
      return undefined;
    }
  }

  /** Keeps one previous file (`<name>.log.1`); lines arriving meanwhile count as dropped. */
  private rotate(stream: WriteStream): void {
    this.backedUp = true;
    this.stream = stream;
    stream.end(() => {
      try {
        renameSync(this.file!, `${this.file}.1`);
      } catch {
        // another agent rotated it first; appending to whatever is there is fine
      }
      this.stream = undefined;
      this.backedUp = false;
    });
  }
}
