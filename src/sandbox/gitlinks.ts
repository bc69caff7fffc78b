/**
 * The submodules a repository's index lists (gitlinks, mode 160000): `git status` in the
 * repository runs a `git status` inside each one that is checked out — with that repository's
 * own config — however deep it is. The root's scan stops three levels down; these paths let the
 * look after a command (leftovers.ts) reach the ones below. Read from the index file itself
 * (versions 2 to 4), never by running git on a repository a command may have changed; the
 * answer is kept while the index file is the same one.
 */
import { type BigIntStats, lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** An index larger than this is not read (its gitlinks are not followed). */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;
const GITLINK = 0o160000;

/** Gitlink paths by index file, while the file is the same (identity). */
export class GitlinkCache {
  private readonly known = new Map<string, { id: string; paths: string[] }>();

  /** The gitlink paths (relative, `/`-separated) of the index in `gitDir`; [] when none or unreadable. */
  paths(gitDir: string, sha256: boolean): string[] {
    const file = path.join(gitDir, 'index');
    let stat: BigIntStats | undefined;
    try {
      stat = lstatSync(file, { throwIfNoEntry: false, bigint: true });
    } catch {
      return [];
    }
    if (!stat?.isFile() || stat.size > BigInt(MAX_INDEX_BYTES)) return [];
    const id = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}:${sha256}`;
    const cached = this.known.get(file);
    if (cached?.id === id) return cached.paths;
    let paths: string[];
    try {
      paths = gitlinksOf(readFileSync(file), sha256 ? 32 : 20);
    } catch {
      paths = [];
    }
    this.known.set(file, { id, paths });
    return paths;
  }
}

/** The gitlink paths of an index file's bytes; throws on a file that is not an index. */
export function gitlinksOf(index: Buffer, hashBytes: number): string[] {
  if (index.toString('latin1', 0, 4) !== 'DIRC') throw new Error('not an index');
  const version = index.readUInt32BE(4);
  if (version < 2 || version > 4) throw new Error(`index version ${version}`);
  const count = index.readUInt32BE(8);
  const found: string[] = [];
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let n = 0; n < count; n++) {
    const start = at;
    const mode = index.readUInt32BE(start + 24);
    const flags = index.readUInt16BE(start + 40 + hashBytes);
    at = start + 42 + hashBytes + (version >= 3 && flags & 0x4000 ? 2 : 0);
    let name: Buffer;
    if (version === 4) {
      // The path is the previous one, less its last `strip` bytes, plus what follows.
      let byte = index[at++] as number;
      let strip = byte & 127;
      while (byte & 128) {
        byte = index[at++] as number;
        strip = ((strip + 1) << 7) + (byte & 127);
      }
      const end = index.indexOf(0, at);
      if (end < 0 || strip > previous.length) throw new Error('bad index entry');
      name = Buffer.concat([previous.subarray(0, previous.length - strip), index.subarray(at, end)]);
      at = end + 1;
    } else {
      const end = index.indexOf(0, at);
      if (end < 0) throw new Error('bad index entry');
      name = index.subarray(at, end);
      // Entries are padded with 1 to 8 NULs to a multiple of eight bytes.
      at = start + ((end - start + 8) & ~7);
    }
    previous = name;
    if ((mode & 0o170000) === GITLINK) found.push(name.toString('utf8'));
    if (at > index.length) throw new Error('truncated index');
  }
  return found;
}
