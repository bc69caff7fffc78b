/**
 * The project's .gitignore rules for mentions: the files from the root down to the folder asked
 * about, read like the search tool reads them (inside the root, no links), the deepest file with
 * an opinion winning as in git. `GitignoreCache` keeps each file's rules for the project's life
 * and re-reads a file only when a stat says it changed; `IgnoreRules` is one look-up (a turn's
 * mentions, a Tab), which stats each folder's file once.
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { type IgnoreScope, isIgnoredBy } from '../util/gitignore-verdict.js';
import { readWalkedFile } from '../workspace/root-files.js';

const MAX_IGNORE_BYTES = 1024 * 1024;

/** One folder's .gitignore as last read, and the stat it was read under. */
interface Cached {
  stamp: string;
  scope: Promise<IgnoreScope | undefined>;
}

/** Every .gitignore of one project, read once and again only when its stat changes. */
export class GitignoreCache {
  private readonly files = new Map<string, Cached>();
  /** How many times a .gitignore was read: a look-up over unchanged files adds none. */
  reads = 0;

  /** `dir`'s rules; undefined when it has no .gitignore that may be read. */
  async scope(dir: string, realRoot: string): Promise<IgnoreScope | undefined> {
    const file = path.join(dir, '.gitignore');
    const stats = await lstat(file).catch(() => undefined);
    // Any write changes ctime, and mtime and size say so too where ctime is coarse.
    const stamp = stats
      ? `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.mode}:${stats.nlink}`
      : 'absent';
    const known = this.files.get(dir);
    if (known?.stamp === stamp) return known.scope;
    // A change between the stat and the read is caught by the next look-up's stat.
    const scope = stats ? this.read(dir, file, realRoot) : Promise.resolve(undefined);
    this.files.set(dir, { stamp, scope });
    return scope;
  }

  private async read(dir: string, file: string, realRoot: string): Promise<IgnoreScope | undefined> {
    this.reads++;
    const bytes = await readWalkedFile(file, realRoot, MAX_IGNORE_BYTES);
    if (bytes === undefined) return undefined;
    const { default: ignore } = await import('ignore');
    return { dir, rules: ignore().add(bytes.toString('utf8')) };
  }
}

export class IgnoreRules {
  private readonly scopes = new Map<string, Promise<IgnoreScope | undefined>>();

  constructor(
    private readonly root: string,
    private readonly realRoot: string,
    private readonly cache: GitignoreCache = new GitignoreCache(),
  ) {}

  /** Whether `absolute` (inside the root) is ignored; `isDir` for a folder. */
  async ignored(absolute: string, isDir: boolean): Promise<boolean> {
    const relative = path.relative(this.root, absolute);
    if (relative === '' || relative.startsWith('..')) return false;
    const parts = relative.split(path.sep);
    // Git never tracks its own folder: treat it as ignored.
    if (parts[0] === '.git') return true;
    const dirs = [this.root];
    for (const part of parts.slice(0, -1)) dirs.push(path.join(dirs.at(-1)!, part));
    const scopes = (await Promise.all(dirs.map((dir) => this.scope(dir)))).filter(
      (scope): scope is IgnoreScope => scope !== undefined,
    );
    // A folder ignored above hides everything in it.
    for (let depth = 1; depth < dirs.length; depth++) {
      if (
        isIgnoredBy(
          dirs[depth]!,
          true,
          scopes.filter((s) => s.dir.length < dirs[depth]!.length),
        )
      )
        return true;
    }
    return isIgnoredBy(absolute, isDir, scopes);
  }

  private scope(dir: string): Promise<IgnoreScope | undefined> {
    let scope = this.scopes.get(dir);
    if (!scope) {
      scope = this.cache.scope(dir, this.realRoot);
      this.scopes.set(dir, scope);
    }
    return scope;
  }
}
