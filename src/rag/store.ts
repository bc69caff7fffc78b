/**
 * The knowledge base under `.geekagent/rag/`: `catalog.json` (sources: content hash, bytes,
 * chunk count), `chunks/<hash>.json` (each source's 800/80 chunks with their lines) and
 * `search-index.json` (the search module's compact index; doc ids `<hash>:<n>`). Loading reads
 * the catalog and the index only; chunk text is read for the hits. The described system's single
 * `index.json` is imported once. Every write is atomic, under the catalog's lock, never through a
 * symlink. Duplicates (same content hash as another source) are skipped; an unchanged source is
 * left alone; a changed one is re-indexed alone.
 */
import { createHash } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import {
  chunkText,
  createIndex,
  loadIndex,
  RAG_CHUNK,
  type SearchIndex,
  SearchIndexFormatError,
} from '../search/index.js';
import { withFileLock } from '../util/file-lock.js';
import { writeFileAtomic } from '../util/safe-write.js';
import { ensureStateDir, readStateFile, stateFilePath } from '../util/state-dir.js';
import type { SourceItem } from './sources.js';

export interface RagSource {
  source: string;
  hash: string;
  bytes: number;
  chunks: number;
  added: string;
}

interface StoredChunk {
  line: number;
  endLine: number;
  text: string;
}

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

const CATALOG_VERSION = 1;
const FIELDS = { text: {} };
const WRITE_BATCH = 32;

export class RagStore {
  private sources = new Map<string, RagSource>();
  private index: SearchIndex = createIndex({ fields: FIELDS });
  private loaded = false;
  private readonly chunkCache = new Map<string, StoredChunk[]>();
  private pending: Promise<void>[] = [];

  constructor(private readonly projectDir: string) {}

  private file(...parts: string[]): string {
    return stateFilePath(this.projectDir, 'rag', ...parts);
  }

  get stats(): { sources: number; chunks: number; bytes: number } {
    let chunks = 0;
    let bytes = 0;
    for (const s of this.sources.values()) {
      chunks += s.chunks;
      bytes += s.bytes;
    }
    return { sources: this.sources.size, chunks, bytes };
  }

  list(): RagSource[] {
    return [...this.sources.values()].sort((a, b) => (a.source < b.source ? -1 : 1));
  }

  /** Reads the catalog and the index (once); a damaged index is rebuilt from the chunk files. */
  async load(): Promise<void> {
    if (this.loaded) return;
    const catalog = await readStateFile(this.file('catalog.json'));
    if (catalog === undefined) {
      this.loaded = true;
      await this.importLegacy();
      return;
    }
    let parsed: { version?: number; sources?: RagSource[] };
    try {
      parsed = JSON.parse(catalog);
      if (!Array.isArray(parsed.sources)) throw new Error('no "sources" list');
    } catch (error) {
      throw new Error(
        `${this.file('catalog.json')} is damaged (${(error as Error).message}); remove .geekagent/rag/ and add the sources again`,
      );
    }
    this.sources = new Map(parsed.sources!.map((s) => [s.source, s]));
    const stored = await readStateFile(this.file('search-index.json'));
    try {
      if (stored === undefined) throw new SearchIndexFormatError('missing');
      this.index = loadIndex(JSON.parse(stored));
    } catch (error) {
      if (!(error instanceof SearchIndexFormatError) && !(error instanceof SyntaxError)) throw error;
      this.index = createIndex({ fields: FIELDS });
      for (const s of this.sources.values()) {
        for (const [n, chunk] of (await this.chunksOf(s.hash)).entries())
          this.index.add(`${s.hash}:${n}`, { text: chunk.text });
      }
    }
    this.loaded = true;
  }

  /** Adds documents (under the lock, then saves once). `progress` hears each one. */
  async add(
    items: AsyncIterable<SourceItem> | Iterable<SourceItem>,
    progress?: (result: AddResult) => void,
  ): Promise<AddResult[]> {
    await ensureStateDir(this.projectDir, 'rag', 'chunks');
    return withFileLock(this.file('catalog.json'), async () => {
      this.loaded = false;
      await this.load();
      const results: AddResult[] = [];
      try {
        for await (const item of items) {
          const result =
            item.kind === 'skipped'
              ? { kind: 'skipped' as const, source: item.key, reason: item.reason }
              : await this.addOne(item);
          results.push(result);
          progress?.(result);
        }
        if (results.some((r) => r.kind === 'indexed')) await this.save();
      } finally {
        await Promise.allSettled(this.pending.splice(0));
      }
      return results;
    });
  }

  private async addOne(item: Extract<SourceItem, { kind: 'text' }>): Promise<AddResult> {
    const hash = createHash('sha256').update(item.text).digest('hex').slice(0, 32);
    const existing = this.sources.get(item.key);
    if (existing?.hash === hash) return { kind: 'unchanged', source: item.key };
    for (const other of this.sources.values()) {
      if (other.hash === hash && other.source !== item.key)
        return { kind: 'duplicate', source: item.key, of: other.source };
    }
    if (existing) {
      this.drop(existing);
      await rm(this.file('chunks', `${existing.hash}.json`), { force: true });
    }
    const chunks = chunkText(item.text, RAG_CHUNK.size, RAG_CHUNK.overlap).map((c) => ({
      line: c.line,
      endLine: c.endLine,
      text: c.text,
    }));
    // Written in batches: each write is fsynced, and waiting on them one by one is most of the time.
    this.pending.push(writeFileAtomic(this.file('chunks', `${hash}.json`), JSON.stringify(chunks)));
    if (this.pending.length >= WRITE_BATCH) await this.flushWrites();
    this.chunkCache.set(hash, chunks);
    for (const [n, chunk] of chunks.entries()) this.index.add(`${hash}:${n}`, { text: chunk.text });
    this.sources.set(item.key, {
      source: item.key,
      hash,
      bytes: item.bytes,
      chunks: chunks.length,
      added: new Date().toISOString(),
    });
    return { kind: 'indexed', source: item.key, chunks: chunks.length, replaced: existing !== undefined };
  }

  private drop(source: RagSource): void {
    for (let n = 0; n < source.chunks; n++) this.index.remove(`${source.hash}:${n}`);
    this.sources.delete(source.source);
    this.chunkCache.delete(source.hash);
  }

  /** Removes a source, or every source under a folder; returns what went. */
  async remove(name: string): Promise<string[]> {
    await ensureStateDir(this.projectDir, 'rag', 'chunks');
    return withFileLock(this.file('catalog.json'), async () => {
      this.loaded = false;
      await this.load();
      const prefix = name.replace(/\/+$/, '');
      const gone = this.list().filter((s) => s.source === prefix || s.source.startsWith(`${prefix}/`));
      for (const s of gone) {
        this.drop(s);
        await rm(this.file('chunks', `${s.hash}.json`), { force: true });
      }
      if (gone.length > 0) await this.save();
      return gone.map((s) => s.source);
    });
  }

  async search(query: string, limit = 4): Promise<RagHit[]> {
    await this.load();
    const byHash = new Map([...this.sources.values()].map((s) => [s.hash, s]));
    const hits: RagHit[] = [];
    for (const hit of this.index.search(query, { limit })) {
      const [hash = '', n = ''] = hit.id.split(':');
      const source = byHash.get(hash);
      const chunk = source ? (await this.chunksOf(hash))[Number(n)] : undefined;
      if (!source || !chunk) continue;
      hits.push({
        source: source.source,
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
    let total = 0;
    for (const name of ['catalog.json', 'search-index.json'])
      total += (await stat(this.file(name)).catch(() => undefined))?.size ?? 0;
    for (const s of this.sources.values())
      total += (await stat(this.file('chunks', `${s.hash}.json`)).catch(() => undefined))?.size ?? 0;
    return total;
  }

  private async chunksOf(hash: string): Promise<StoredChunk[]> {
    const cached = this.chunkCache.get(hash);
    if (cached) return cached;
    const raw = await readStateFile(this.file('chunks', `${hash}.json`));
    const chunks = raw === undefined ? [] : (JSON.parse(raw) as StoredChunk[]);
    this.chunkCache.set(hash, chunks);
    return chunks;
  }

  private async flushWrites(): Promise<void> {
    const writes = this.pending.splice(0);
    await Promise.all(writes);
  }

  private async save(): Promise<void> {
    await this.flushWrites();
    await writeFileAtomic(this.file('search-index.json'), JSON.stringify(this.index.toJSON()));
    await writeFileAtomic(
      this.file('catalog.json'),
      `${JSON.stringify({ version: CATALOG_VERSION, sources: this.list() }, null, 1)}\n`,
    );
  }

  /**
   * The described system's `.geekagent/rag/index.json`: chunks as `{source, text}` (or a
   * `{chunks: [...]}` around them). Each source's chunks are joined back and indexed afresh.
   */
  private async importLegacy(): Promise<void> {
    const raw = await readStateFile(this.file('index.json')).catch(() => undefined);
    if (raw === undefined) return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return;
    }
    const list = Array.isArray(value) ? value : ((value as { chunks?: unknown[] } | null)?.chunks ?? []);
    const bySource = new Map<string, string[]>();
    for (const item of list as Array<Record<string, unknown>>) {
      if (!item || typeof item.text !== 'string') continue;
      const source = typeof item.source === 'string' ? item.source : 'index.json';
      bySource.set(source, [...(bySource.get(source) ?? []), item.text]);
    }
    if (bySource.size === 0) return;
    await ensureStateDir(this.projectDir, 'rag', 'chunks');
    for (const [source, texts] of bySource) {
      const text = texts.join('\n');
      await this.addOne({ kind: 'text', key: source, text, bytes: Buffer.byteLength(text) });
    }
    await this.save();
  }
}
