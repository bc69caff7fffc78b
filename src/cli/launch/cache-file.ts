/**
 * The code cache's files (launch/code-cache.ts keeps them): their format, read verified, written
 * atomically, and the marker that names a cache a start crashed on.
 *
 * V8 trusts cached data it accepts: it checks the source's length and its own flags, not the bytes,
 * and a cache with flipped bytes made every start die in the deserializer (`Fatal error …
 * unreachable code`, issue 25). So a file is a 16-byte header — magic `GAV8`, format, payload
 * length, CRC-32 of the payload (little-endian u32s) — then V8's data, and a file whose header or
 * checksum does not match is never handed to V8 (the run compiles, and writes a good one). CRC-32
 * is zlib's, native (~1 GB/s: well under a millisecond for a start's caches); 16 bytes keep the
 * payload 8-byte aligned, so V8 does not copy it.
 *
 * Deserializing a verified cache could still crash the process, and nothing can be said from
 * inside a crash: a marker (`.loading.<pid>`, holding the cache's name) lives while V8 reads a
 * cache, so the next start finds a dead process's marker, removes that cache and says so.
 */
import {
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const MAGIC = 0x38564147; // "GAV8"
const FORMAT = 1;
export const CACHE_HEADER_BYTES = 16;
const MARKER = /^\.loading\.(\d+)$/;

export interface CacheName {
  /** `<bundle>[.<kind>]`: what one cache is of; other builds' and Nodes' share it. */
  prefix: string;
  file: string;
}

type Crc32 = (data: Uint8Array, value?: number) => number;
let crc32Function: Crc32 | undefined;

/** CRC-32 (zlib's polynomial): node:zlib's from Node 20.15, loaded on the first cache; a table before. */
export function crc32(data: Uint8Array): number {
  if (!crc32Function) {
    // Not at module load: `--version` and runs without a cache never load zlib for it.
    const zlib = createRequire(import.meta.url)('node:zlib') as { crc32?: Crc32 };
    crc32Function = zlib.crc32 ?? tableCrc32;
  }
  return crc32Function(data) >>> 0;
}

let table: Int32Array | undefined;
export function tableCrc32(data: Uint8Array): number {
  if (!table) {
    table = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c;
    }
  }
  let crc = -1;
  for (let i = 0; i < data.length; i++) crc = (table[(crc ^ data[i]!) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

/** The file's bytes for V8's cached `data`. */
export function sealCache(data: Buffer): Buffer {
  const file = Buffer.allocUnsafe(CACHE_HEADER_BYTES + data.length);
  file.writeUInt32LE(MAGIC, 0);
  file.writeUInt32LE(FORMAT, 4);
  file.writeUInt32LE(data.length, 8);
  file.writeUInt32LE(crc32(data), 12);
  data.copy(file, CACHE_HEADER_BYTES);
  return file;
}

/** V8's data from a file's bytes, or undefined when the header or the checksum does not match. */
export function openCache(file: Buffer): Buffer | undefined {
  if (file.length < CACHE_HEADER_BYTES) return undefined;
  if (file.readUInt32LE(0) !== MAGIC || file.readUInt32LE(4) !== FORMAT) return undefined;
  const data = file.subarray(CACHE_HEADER_BYTES);
  if (file.readUInt32LE(8) !== data.length || file.readUInt32LE(12) !== crc32(data)) return undefined;
  return data;
}

/** The verified data of a cache file; undefined when it is missing, unreadable, a link or bad. */
export function readCache(file: string): Buffer | undefined {
  if (!realFolder(path.dirname(file))) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    return openCache(readFileSync(fd));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The cache folder and its parent are real folders, not links that would move the files elsewhere. */
function realFolder(dir: string): boolean {
  try {
    return [dir, path.dirname(dir)].every((folder) => lstatSync(folder).isDirectory());
  } catch {
    return false;
  }
}

/** Temp file (exclusive, no-follow) + rename; the same prefix's other caches are removed. */
export function writeCache({ prefix, file }: CacheName, data: Buffer): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!realFolder(dir)) return;
  const base = path.basename(file);
  const temporary = path.join(dir, `.${base}.${process.pid}.tmp`);
  const fd = openSync(
    temporary,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
    0o600,
  );
  try {
    writeSync(fd, sealCache(data));
    // The bytes are on disk before the name (the checksum would catch a torn file; this avoids one).
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temporary, file);
  // `<prefix>.<hash>.<node>.v8`: the same bundle and kind of run, another build or Node.
  const older = new RegExp(`^${prefix.replaceAll('.', '\\.')}\\.[0-9a-f]{16}\\.[0-9a-f]{8}\\.v8$`);
  for (const other of readdirSync(dir))
    if (other !== base && older.test(other)) rmSync(path.join(dir, other), { force: true });
}

/**
 * Marks `file` as being read by V8 in this process; the returned function unmarks it. Never
 * throws: a folder that cannot hold the marker costs only the notice after a crash.
 */
export function markLoading(file: string): () => void {
  const marker = path.join(path.dirname(file), `.loading.${process.pid}`);
  try {
    const fd = openSync(
      marker,
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0),
      0o600,
    );
    try {
      writeSync(fd, path.basename(file));
    } finally {
      closeSync(fd);
    }
  } catch {
    return () => undefined;
  }
  return () => {
    try {
      unlinkSync(marker);
    } catch {
      // already gone
    }
  };
}

/**
 * Caches a start crashed while V8 read them (a marker left by a process that is gone): each is
 * removed with its marker, and its path returned for the notice.
 */
export function removeCrashedCaches(dir: string): string[] {
  let names: string[];
  try {
    if (!realFolder(dir)) return [];
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = MARKER.exec(name)?.[1];
    if (pid === undefined || alive(Number(pid))) continue;
    const marker = path.join(dir, name);
    let cache: string | undefined;
    try {
      const fd = openSync(marker, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
      try {
        cache = readFileSync(fd, 'utf8');
      } finally {
        closeSync(fd);
      }
    } catch {
      // unreadable (or a link): the marker goes anyway
    }
    rmSync(marker, { force: true });
    // Only a cache file's own name, never a path the marker could point elsewhere with.
    if (cache && /^[\w.-]+\.v8$/.test(cache)) {
      rmSync(path.join(dir, cache), { force: true });
      removed.push(path.join(dir, cache));
    }
  }
  return removed;
}

function alive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user holds the number.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
