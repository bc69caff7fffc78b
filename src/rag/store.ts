/**
 * The knowledge base under `.geekagent/rag/` (format 2): `index.bin` (catalog + search index,
 * catalog.ts) and the chunk texts packed into `segments/*.seg` (segments.ts); doc ids are
 * `<hash>:<n>`. Loading reads `index.bin` only; a hit's chunk record is read when it is returned.
 * An add streams its documents: each is chunked, indexed and appended to the segment being
 * filled, so memory holds the index and at most two segments, never the corpus; then one save
 * writes the last segment and `index.bin` (one fsync per segment, not per source). Writes happen
 * under `catalog.json.lock`, atomically, never through a symlink. Duplicates (same content hash as
 * another source) are skipped; an unchanged source is left alone; a changed one is re-indexed
 * alone. Older stores (legacy.ts) are read, and migrated by the next add or remove.
 */
import { createHash } from 'node:crypto';
import { lstat, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import {
  chunkText,
  createIndex,
  loadIndexBytes,
  RAG_CHUNK,
  type SearchIndex,
  SearchIndexFormatError,
} from '../search/index.js';
import { withFileLock } from '../util/file-lock.js';
import { writeFileAtomic } from '../util/safe-write.js';
import { ensureStateDir, readRegularFile, stateFilePath } from '../util/state-dir.js';
import { type CatalogEntry, CatalogError, decodeStore, encodeStore, type RagSource } from './catalog.js';
import {
  FORMAT1_FILES,
  readDescribedIndex,
  readFormat1,
  readFormat1Chunks,
  removeFormat1,
} from './legacy.js';
import {
  decodeRecord,
  encodeRecord,
  listSegments,
  SEGMENT_BYTES,
  SegmentWriter,
  type StoredChunk,
} from './segments.js';
import type { SourceItem } from './sources.js';

export type { RagSource };

export interface RagHit {
  source: string;
  line: number;
  endLine: number;
  text: string;
  score: number;
}

export type AddResult =
  | { kind: 'indexed'; source: string; chunks: number; replaced: boolean }
  | { kind: 'unchanged'; source: string }
  | { kind: 'duplicate'; source: string; of: string }
  | { kind: 'skipped'; source: string; reason: string };

const FIELDS = { text: {} };
/** Chunk records kept in memory after a search (the hits of the last few queries). */
const CACHED_RECORDS = 64;
/** A long add keeps its lock fresh, so no other agent takes it for abandoned. */
const LOCK_TOUCH_MS = 5_000;
/** A segment whose live records are under half its bytes is rewritten by the next save. */
const MIN_LIVE_SHARE = 0.5;
/** Small segments (one per small add) are merged once there are more than a few. */
const SMALL_SEGMENT = SEGMENT_BYTES / 16;
const MAX_SMALL_SEGMENTS = 8;

export class RagStore {
  private entries = new Map<string, CatalogEntry>();
  private byHash = new Map<string, CatalogEntry>();
  private index: SearchIndex = createIndex({ fields: FIELDS });
  private loaded = false;
  /** 1 while a format-1 store is read as it is (the next add or remove migrates it). */
  private format: 1 | 2 = 2;
  private readonly records = new Map<string, StoredChunk[]>();
  private writer: SegmentWriter | undefined;
  private notes: string[] = [];
  /** True while this store runs a change under the lock (`changing`). */
  private holdsLock = false;

  constructor(private readonly projectDir: string) {}

  private file(...parts: string[]): string {
    return stateFilePath(this.projectDir, 'rag', ...parts);
  }

  get stats(): { sources: number; chunks: number; bytes: number } {
    let chunks = 0;
    let bytes = 0;
    for (const s of this.entries.values()) {
      chunks += s.chunks;
      bytes += s.bytes;
    }
    return { sources: this.entries.size, chunks, bytes };
  }

  /** 1 when the store on disk is still format 1 (chunk files); 2 otherwise. */
  get storeFormat(): 1 | 2 {
    return this.format;
  }

  list(): RagSource[] {
    return [...this.entries.values()].sort((a, b) => (a.source < b.source ? -1 : 1));
  }

  /** Messages for the person since the last call (a migration, an import). */
  takeNotes(): string[] {
    return this.notes.splice(0);
  }

  /** Reads `index.bin` (once); a stale or damaged index part is rebuilt from the chunk records. */
  async load(): Promise<void> {
    if (this.loaded) return;
    this.entries = new Map();
    this.byHash = new Map();
    this.records.clear();
    this.format = 2;
    const bytes = await readRegularFile(this.file('index.bin'));
    if (bytes !== undefined) {
      let decoded: ReturnType<typeof decodeStore>;
      try {
        decoded = decodeStore(bytes);
      } catch (error) {
        if (!(error instanceof CatalogError)) throw error;
        throw new Error(
          `${this.file('index.bin')} is damaged (${error.message}); remove .geekagent/rag/ and add the sources again`,
        );
      }
      this.setEntries(decoded.entries);
      try {
        this.index = loadIndexBytes(decoded.index);
      } catch (error) {
        if (!(error instanceof SearchIndexFormatError)) throw error;
        this.index = await this.rebuildIndex();
      }
      this.loaded = true;
      return;
    }
    const old = await readFormat1(this.file());
    if (old) {
      this.format = 1;
      this.setEntries(old.entries);
      this.index = old.index ?? (await this.rebuildIndex());
      this.loaded = true;
      return;
    }
    this.index = createIndex({ fields: FIELDS });
    this.loaded = true;
    await this.importDescribed();
  }

  /** Adds documents, read one at a time (under the lock, then saves once). `progress` hears each. */
  async add(
    items: AsyncIterable<SourceItem> | Iterable<SourceItem>,
    progress?: (result: AddResult) => void,
  ): Promise<AddResult[]> {
    return this.changing(async () => {
      const results: AddResult[] = [];
      for await (const item of items) {
        const result =
          item.kind === 'skipped'
            ? { kind: 'skipped' as const, source: item.key, reason: item.reason }
            : await this.addOne(item);
        results.push(result);
        progress?.(result);
      }
      return { value: results, changed: results.some((r) => r.kind === 'indexed') };
    });
  }

  /** Removes a source, or every source under a folder; returns what went. */
  async remove(name: string): Promise<string[]> {
    return this.changing(async () => {
      const prefix = name.replace(/\/+$/, '');
      const gone = this.list().filter((s) => s.source === prefix || s.source.startsWith(`${prefix}/`));
      for (const s of gone) this.drop(this.entries.get(s.source)!);
      return { value: gone.map((s) => s.source), changed: gone.length > 0 };
    });
  }

  async search(query: string, limit = 4): Promise<RagHit[]> {
    await this.load();
    const hits: RagHit[] = [];
    for (const hit of this.index.search(query, { limit })) {
      const colon = hit.id.lastIndexOf(':');
      const entry = this.byHash.get(hit.id.slice(0, colon));
      const chunk = entry ? (await this.chunksOf(entry))[Number(hit.id.slice(colon + 1))] : undefined;
      if (!entry || !chunk) continue;
      hits.push({
        source: entry.source,
        line: chunk.line,
        endLine: chunk.endLine,
        text: chunk.text,
        score: hit.score,
      });
    }
    return hits;
  }

  /** Size of the files under `.geekagent/rag/` in bytes. */
  async diskBytes(): Promise<number> {
    const size = async (file: string) => (await stat(file).catch(() => undefined))?.size ?? 0;
    let total = await size(this.file('index.bin'));
    for (const name of await listSegments(this.file('segments')))
      total += await size(this.file('segments', name));
    if (this.format === 1) {
      for (const name of FORMAT1_FILES) total += await size(this.file(name));
      for (const s of this.entries.values()) total += await size(this.file('chunks', `${s.hash}.json`));
    }
    return total;
  }

  /**
   * Runs a change under the lock on a freshly loaded store, with a segment writer for new chunk
   * records; saves when it changed something (or a format-1 store is to be migrated).
   */
  private async changing<T>(body: () => Promise<{ value: T; changed: boolean }>): Promise<T> {
    await ensureStateDir(this.projectDir, 'rag', 'segments');
    const lock = this.file('catalog.json');
    return withFileLock(lock, async () => {
      const touch = setInterval(() => {
        const now = new Date();
        void utimes(`${lock}.lock`, now, now).catch(() => undefined);
      }, LOCK_TOUCH_MS);
      touch.unref();
      this.holdsLock = true;
      try {
        this.loaded = false;
        await this.load();
        this.writer = new SegmentWriter(this.file('segments'));
        const { value, changed } = await body();
        if (changed || this.format === 1) await this.save();
        return value;
      } finally {
        this.holdsLock = false;
        clearInterval(touch);
        // A failed add leaves its written segments unnamed: the next save deletes them.
        await this.writer?.settle();
        this.writer = undefined;
      }
    });
  }

  private async addOne(item: Extract<SourceItem, { kind: 'text' }>): Promise<AddResult> {
    const hash = createHash('sha256').update(item.text).digest('hex').slice(0, 32);
    const existing = this.entries.get(item.key);
    if (existing?.hash === hash) return { kind: 'unchanged', source: item.key };
    const other = this.byHash.get(hash);
    if (other && other.source !== item.key) return { kind: 'duplicate', source: item.key, of: other.source };
    if (existing) this.drop(existing);
    const chunks = chunkText(item.text, RAG_CHUNK.size, RAG_CHUNK.overlap);
    const at = await this.writer!.append(encodeRecord(chunks));
    for (const [n, chunk] of chunks.entries()) this.index.add(`${hash}:${n}`, { text: chunk.text });
    const entry: CatalogEntry = {
      source: item.key,
      hash,
      bytes: item.bytes,
      chunks: chunks.length,
      added: new Date().toISOString(),
      at,
    };
    this.entries.set(entry.source, entry);
    this.byHash.set(hash, entry);
    return { kind: 'indexed', source: item.key, chunks: chunks.length, replaced: existing !== undefined };
  }

  private drop(entry: CatalogEntry): void {
    for (let n = 0; n < entry.chunks; n++) this.index.remove(`${entry.hash}:${n}`);
    this.entries.delete(entry.source);
    if (this.byHash.get(entry.hash) === entry) this.byHash.delete(entry.hash);
    this.records.delete(entry.hash);
  }

  private setEntries(entries: CatalogEntry[]): void {
    for (const entry of entries) {
      this.entries.set(entry.source, entry);
      this.byHash.set(entry.hash, entry);
    }
  }

  /** A source's chunks: its record in a segment (or its format-1 file), cached for a while. */
  private async chunksOf(entry: CatalogEntry): Promise<StoredChunk[]> {
    const cached = this.records.get(entry.hash);
    if (cached) {
      this.records.delete(entry.hash);
      this.records.set(entry.hash, cached);
      return cached;
    }
    const chunks = await this.readChunks(entry);
    this.records.set(entry.hash, chunks);
    if (this.records.size > CACHED_RECORDS) this.records.delete(this.records.keys().next().value!);
    return chunks;
  }

  private async readChunks(entry: CatalogEntry): Promise<StoredChunk[]> {
    if (!entry.at) return readFormat1Chunks(this.file(), entry.hash);
    const raw = await readRegularFile(this.file('segments', entry.at.segment), entry.at);
    return (raw && decodeRecord(raw)) || [];
  }

  /** The index again from the chunk records (an index from an older analyzer, or a damaged one). */
  private async rebuildIndex(): Promise<SearchIndex> {
    const index = createIndex({ fields: FIELDS });
    for (const entry of this.entries.values()) {
      for (const [n, chunk] of (await this.readChunks(entry)).entries())
        index.add(`${entry.hash}:${n}`, { text: chunk.text });
    }
    return index;
  }

  /**
   * Writes the last segment, then `index.bin`; only then deletes what nothing names any more
   * (segments of replaced sources, merged ones, a failed add's; format 1's files).
   */
  private async save(): Promise<void> {
    const writer = this.writer!;
    const moving = await this.segmentsToRewrite(writer);
    for (const entry of this.entries.values()) {
      if (entry.at && !moving.has(entry.at.segment)) continue;
      const raw = entry.at
        ? await readRegularFile(this.file('segments', entry.at.segment), entry.at)
        : encodeRecord(await readFormat1Chunks(this.file(), entry.hash));
      entry.at = await writer.append(raw ?? encodeRecord([]));
    }
    await writer.finish();
    await writeFileAtomic(this.file('index.bin'), encodeStore(this.list(), this.index.toByteParts()));
    const live = new Set([...this.entries.values()].map((e) => e.at?.segment));
    for (const name of await listSegments(this.file('segments')))
      if (!live.has(name)) await rm(this.file('segments', name), { force: true });
    if (this.format === 1) {
      await removeFormat1(this.file());
      this.format = 2;
      this.notes.push(
        `moved the knowledge base to format 2 (${this.entries.size} sources now in .geekagent/rag/index.bin and segments/)`,
      );
    }
  }

  /** Segments mostly dead, or small ones once there are many: their live records move. */
  private async segmentsToRewrite(writer: SegmentWriter): Promise<Set<string>> {
    const live = new Map<string, number>();
    for (const e of this.entries.values())
      if (e.at && !writer.owns(e.at.segment))
        live.set(e.at.segment, (live.get(e.at.segment) ?? 0) + e.at.length);
    const rewrite = new Set<string>();
    const small: string[] = [];
    for (const [name, bytes] of live) {
      const size = (await lstat(path.join(this.file('segments'), name)).catch(() => undefined))?.size ?? 0;
      if (bytes < size * MIN_LIVE_SHARE) rewrite.add(name);
      else if (size < SMALL_SEGMENT) small.push(name);
    }
    if (small.length > MAX_SMALL_SEGMENTS) for (const name of small) rewrite.add(name);
    return rewrite;
  }

  /**
   * The described system's `.geekagent/rag/index.json`: each source indexed afresh, once. Under
   * the lock: a search in another agent may be importing the same file at the same moment; whoever
   * comes second finds the store it wrote.
   */
  private async importDescribed(): Promise<void> {
    const texts = await readDescribedIndex(this.file());
    if (texts === undefined) return;
    if (!this.holdsLock) {
      // A change with nothing to do: its load (under the lock) imports when still needed.
      await this.changing(async () => ({ value: undefined, changed: false }));
      return;
    }
    await ensureStateDir(this.projectDir, 'rag', 'segments');
    this.writer = new SegmentWriter(this.file('segments'));
    try {
      for (const [source, text] of texts)
        await this.addOne({ kind: 'text', key: source, text, bytes: Buffer.byteLength(text) });
      await this.save();
    } finally {
      await this.writer.settle();
      this.writer = undefined;
    }
    this.notes.push(`imported ${texts.size} sources from .geekagent/rag/index.json`);
  }
}
