/**
 * `.geekagent/rag/index.bin`, the knowledge base's one file to load (format 2): `GKRAGKB2`, a
 * 4-byte catalog length, the catalog as JSON — every source with its content hash, size, chunk
 * count, time added and where its chunk record is — then the search index in the search module's
 * binary form. One file, replaced atomically: a reader never sees a catalog from one add and an
 * index from another. The file is in the project folder, so every entry is checked (a segment
 * name that could leave the folder is refused).
 */
import { type RecordLocation, SEGMENT_NAME } from './segments.js';

export const CATALOG_VERSION = 2;
const MAGIC = Buffer.from('GKRAGKB2', 'latin1');

export interface RagSource {
  source: string;
  hash: string;
  bytes: number;
  chunks: number;
  added: string;
}

/** A source and where its chunks are: `at` is absent for a format-1 store's `chunks/<hash>.json`. */
export interface CatalogEntry extends RagSource {
  at?: RecordLocation;
}

export class CatalogError extends Error {
  override name = 'CatalogError';
}

/** The file's bytes: the catalog, then the index's parts, copied once into one buffer. */
export function encodeStore(entries: readonly CatalogEntry[], index: readonly Uint8Array[]): Buffer {
  const catalog = Buffer.from(
    JSON.stringify({
      version: CATALOG_VERSION,
      sources: entries.map((e) => [
        e.source,
        e.hash,
        e.bytes,
        e.chunks,
        e.added,
        e.at?.segment,
        e.at?.offset,
        e.at?.length,
      ]),
    }),
  );
  const size = Buffer.alloc(4);
  size.writeUInt32LE(catalog.length);
  const parts = [MAGIC, size, catalog, ...index];
  const out = Buffer.allocUnsafe(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * The catalog and the index bytes of `encodeStore`'s output. A bad catalog throws `CatalogError`
 * (the sources are lost: add them again); the index bytes are checked by the search module.
 */
export function decodeStore(bytes: Buffer): { entries: CatalogEntry[]; index: Buffer } {
  if (bytes.length < 12 || !bytes.subarray(0, 8).equals(MAGIC))
    throw new CatalogError('not a knowledge-base file');
  const length = bytes.readUInt32LE(8);
  if (12 + length > bytes.length) throw new CatalogError('the catalog runs past the end');
  let value: { version?: unknown; sources?: unknown };
  try {
    value = JSON.parse(bytes.toString('utf8', 12, 12 + length));
  } catch {
    throw new CatalogError('the catalog is not JSON');
  }
  if (value?.version !== CATALOG_VERSION)
    throw new CatalogError(`catalog version ${String(value?.version)} is not ${CATALOG_VERSION}`);
  if (!Array.isArray(value.sources)) throw new CatalogError('no "sources" list');
  const entries = value.sources.map((item: unknown, i: number): CatalogEntry => {
    const bad = (what: string) => new CatalogError(`source ${i + 1}: ${what}`);
    if (!Array.isArray(item)) throw bad('not a list');
    const [source, hash, size, chunks, added, segment, offset, recordLength] = item;
    if (typeof source !== 'string' || typeof hash !== 'string' || !/^[0-9a-f]{32}$/.test(hash))
      throw bad('no source name or content hash');
    if (!isCount(size) || !isCount(chunks) || typeof added !== 'string') throw bad('bad sizes');
    if (typeof segment !== 'string' || !SEGMENT_NAME.test(segment)) throw bad('bad segment name');
    if (!isCount(offset) || !isCount(recordLength)) throw bad('bad record place');
    return { source, hash, bytes: size, chunks, added, at: { segment, offset, length: recordLength } };
  });
  return { entries, index: bytes.subarray(12 + length) };
}

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
