/**
 * Knowledge bases written before format 2, read so nothing is lost: format 1 (`catalog.json`, one
 * `chunks/<hash>.json` per source, `search-index.json`), which the next add or remove migrates
 * into segments and `index.bin`; and the described system's single `index.json` (chunks as
 * `{source, text}`, or `{chunks: […]}` around them), which is imported once.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { loadIndex, type SearchIndex, SearchIndexFormatError } from '../search/index.js';
import { readRegularFile } from '../util/state-dir.js';
import type { CatalogEntry } from './catalog.js';
import { decodeRecord, type StoredChunk } from './segments.js';

export const FORMAT1_FILES = ['catalog.json', 'search-index.json'] as const;

/** Format 1's sources and index (undefined when damaged or missing: rebuild it); undefined if none. */
export async function readFormat1(
  dir: string,
): Promise<{ entries: CatalogEntry[]; index: SearchIndex | undefined } | undefined> {
  const file = path.join(dir, 'catalog.json');
  const raw = await readRegularFile(file);
  if (raw === undefined) return undefined;
  let entries: CatalogEntry[];
  try {
    const parsed = JSON.parse(raw.toString('utf8')) as { sources?: unknown };
    if (!Array.isArray(parsed.sources)) throw new Error('no "sources" list');
    entries = parsed.sources.map((s: Partial<CatalogEntry>) => {
      if (typeof s?.source !== 'string' || typeof s.hash !== 'string' || !/^[0-9a-f]{32}$/.test(s.hash))
        throw new Error('a source has no name or content hash');
      return {
        source: s.source,
        hash: s.hash,
        bytes: Number(s.bytes) || 0,
        chunks: Number(s.chunks) || 0,
        added: String(s.added ?? ''),
      };
    });
  } catch (error) {
    throw new Error(
      `${file} is damaged (${(error as Error).message}); remove .geekagent/rag/ and add the sources again`,
    );
  }
  const stored = await readRegularFile(path.join(dir, 'search-index.json'));
  let index: SearchIndex | undefined;
  try {
    index = stored === undefined ? undefined : loadIndex(JSON.parse(stored.toString('utf8')));
  } catch (error) {
    if (!(error instanceof SearchIndexFormatError) && !(error instanceof SyntaxError)) throw error;
  }
  return { entries, index };
}

/** One format-1 source's chunks (empty when its file is missing or damaged). */
export async function readFormat1Chunks(dir: string, hash: string): Promise<StoredChunk[]> {
  const raw = await readRegularFile(path.join(dir, 'chunks', `${hash}.json`));
  return (raw && decodeRecord(raw)) || [];
}

/** Deletes format 1's files once everything is in segments and `index.bin`. */
export async function removeFormat1(dir: string): Promise<void> {
  for (const name of FORMAT1_FILES) await rm(path.join(dir, name), { force: true });
  await rm(path.join(dir, 'chunks'), { recursive: true, force: true });
}

/** The described system's `index.json` as source → text (its chunks joined back), if there is one. */
export async function readDescribedIndex(dir: string): Promise<Map<string, string> | undefined> {
  const raw = await readRegularFile(path.join(dir, 'index.json')).catch(() => undefined);
  if (raw === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
  const list = Array.isArray(value) ? value : ((value as { chunks?: unknown[] } | null)?.chunks ?? []);
  const bySource = new Map<string, string[]>();
  for (const item of list as Array<Record<string, unknown>>) {
    if (!item || typeof item.text !== 'string') continue;
    const source = typeof item.source === 'string' ? item.source : 'index.json';
    const texts = bySource.get(source);
    if (texts) texts.push(item.text);
    else bySource.set(source, [item.text]);
  }
  if (bySource.size === 0) return undefined;
  return new Map([...bySource].map(([source, texts]) => [source, texts.join('\n')]));
}
