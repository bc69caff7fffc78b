/**
 * The project's .gitignore rules for one look-up (a mention, a completion): the files from the
 * root down to the folder asked about, read like the search tool reads them (inside the root,
 * no links), the deepest file with an opinion winning as in git.
 */
import path from 'node:path';
import { type IgnoreScope, isIgnoredBy } from '../util/gitignore-verdict.js';
import { readWalkedFile } from '../workspace/root-files.js';

const MAX_IGNORE_BYTES = 1024 * 1024;

export class IgnoreRules {
  private readonly scopes = new Map<string, Promise<IgnoreScope | undefined>>();

  constructor(
    private readonly root: string,
    private readonly realRoot: string,
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
      scope = (async () => {
        const bytes = await readWalkedFile(path.join(dir, '.gitignore'), this.realRoot, MAX_IGNORE_BYTES);
        if (bytes === undefined) return undefined;
        const { default: ignore } = await import('ignore');
        return { dir, rules: ignore().add(bytes.toString('utf8')) };
      })();
      this.scopes.set(dir, scope);
    }
    return scope;
  }
}
