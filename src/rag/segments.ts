/**
 * The knowledge base's chunk texts: packed into segment files `.geekagent/rag/segments/<16 hex>.seg`,
 * each written once, whole, by `writeFileAtomic` (one fsync per ~16 MB instead of one per source —
 * the texts can always be rebuilt from the sources, the index names only segments already on
 * disk). A record is one source's chunks as the JSON `[[line, endLine, text], …]`; the catalog
 * holds where each record is. Reads take only a hit's record, never through a symlink.
 */
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../util/safe-write.js';

/** A segment is written when its records reach this size (memory while adding stays near 2×). */
export const SEGMENT_BYTES = 16 * 1024 * 1024;
export const SEGMENT_NAME = /^[0-9a-f]{16}\.seg$/;

export interface RecordLocation {
  segment: string;
  offset: number;
  length: number;
}

export interface StoredChunk {
  line: number;
  endLine: number;
  text: string;
}

export function encodeRecord(chunks: readonly StoredChunk[]): Buffer {
  return Buffer.from(JSON.stringify(chunks.map((c) => [c.line, c.endLine, c.text])));
}

/** A record's chunks; undefined when the bytes are not one (a damaged or foreign file). */
export function decodeRecord(bytes: Buffer | string): StoredChunk[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(typeof bytes === 'string' ? bytes : bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value)) return undefined;
  const chunks: StoredChunk[] = [];
  for (const item of value) {
    // Format 1's chunk files hold objects; segments hold [line, endLine, text].
    const [line, endLine, text] = Array.isArray(item) ? item : [item?.line, item?.endLine, item?.text];
    if (!Number.isSafeInteger(line) || !Number.isSafeInteger(endLine) || typeof text !== 'string')
      return undefined;
    chunks.push({ line, endLine, text });
  }
  return chunks;
}

/** Appends records to segments, writing each segment once when it is full (or at `finish`). */
export class SegmentWriter {
  private parts: Buffer[] = [];
  private size = 0;
  private name = newName();
  private writing: Promise<void> = Promise.resolve();
  readonly written: string[] = [];

  constructor(
    private readonly dir: string,
    private readonly limit = SEGMENT_BYTES,
  ) {}

  async append(record: Buffer): Promise<RecordLocation> {
    if (this.size > 0 && this.size + record.length > this.limit) await this.flush();
    const at = { segment: this.name, offset: this.size, length: record.length };
    this.parts.push(record);
    this.size += record.length;
    return at;
  }

  /** Writes what is left and waits for every write. */
  async finish(): Promise<void> {
    await this.flush();
    await this.writing;
  }

  /** Waits for a write in flight, ignoring its failure (after an add that failed anyway). */
  async settle(): Promise<void> {
    await this.writing.catch(() => undefined);
  }

  /** True for the segments this writer wrote or is filling. */
  owns(name: string): boolean {
    return name === this.name || this.written.includes(name);
  }

  private async flush(): Promise<void> {
    if (this.size === 0) return;
    const data = Buffer.concat(this.parts);
    const file = path.join(this.dir, this.name);
    this.written.push(this.name);
    this.parts = [];
    this.size = 0;
    this.name = newName();
    // One write in flight while the next segment fills: at most two segments in memory.
    await this.writing;
    const write = writeFileAtomic(file, data);
    // Handled here so a failure waits for the next append or `finish` to throw it.
    write.catch(() => undefined);
    this.writing = write;
  }
}

/** The segment files in the folder (other names are left alone). */
export async function listSegments(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((name) => SEGMENT_NAME.test(name));
}

function newName(): string {
  return `${randomBytes(8).toString('hex')}.seg`;
}
