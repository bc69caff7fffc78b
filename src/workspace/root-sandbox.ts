/**
 * The root sandbox: file tools may only touch paths inside the permission root (or one of the
 * extra roots an editor adds: ACP's `additionalDirectories`, under the same rules). Rejects `..`
 * escapes, absolute paths elsewhere, and symlinks (anywhere along the path) that lead out.
 */
import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../util/errors.js';
import { isInside } from '../util/root-read.js';

/** Resolves paths against the permission root and refuses anything outside it. */
export interface PathSandbox {
  readonly root: string;
  /** Further absolute folders the file tools may use as they use the root (none by default). */
  readonly extraRoots?: readonly string[];
  /** Absolute, symlink-checked path inside root; throws `path outside root: X` otherwise. */
  resolve(path: string): Promise<string>;
  /** Path relative to root, for display. */
  display(absolute: string): string;
}

export class RootSandbox implements PathSandbox {
  private readonly realRoots = new Map<string, Promise<string>>();

  constructor(
    readonly root: string,
    readonly extraRoots: readonly string[] = [],
  ) {}

  async resolve(requested: string): Promise<string> {
    const absolute = path.resolve(this.root, requested);
    const root = rootsOf(this).find((candidate) => isInside(candidate, absolute));
    if (root === undefined) throw outside(requested);
    let realRoot = this.realRoots.get(root);
    if (!realRoot) {
      realRoot = realpath(root).catch(() => root);
      this.realRoots.set(root, realRoot);
    }
    // The path may not exist yet (write creates it): check the deepest part that does.
    const real = await realpathOfExistingPrefix(absolute);
    if (!isInside(await realRoot, real)) throw outside(requested);
    return absolute;
  }

  display(absolute: string): string {
    // A path in an extra root is shown whole: relative to the root it would read as `../..`.
    if (!isInside(this.root, absolute)) return absolute;
    const relative = path.relative(this.root, absolute);
    return relative === '' ? '.' : relative;
  }
}

/** The root first, then the extra roots. */
export function rootsOf(sandbox: PathSandbox): string[] {
  return [sandbox.root, ...(sandbox.extraRoots ?? [])];
}

function outside(requested: string): ToolError {
  return new ToolError(`path outside root: ${requested}`);
}

// One definition for the sandbox, the root-file primitives and project instructions.
export { isInside };

/**
 * realpath of the longest existing prefix, with the missing tail appended unchanged. A dangling
 * symlink is followed by hand: writing through it would create its target, wherever that is.
 */
export async function realpathOfExistingPrefix(absolute: string, depth = 0): Promise<string> {
  let existing = absolute;
  const tail: string[] = [];
  for (;;) {
    try {
      const real = await realpath(existing);
      return tail.length === 0 ? real : path.join(real, ...tail.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      const link = await lstat(existing).catch(() => undefined);
      if (link?.isSymbolicLink() && depth < 40) {
        // Relative targets are relative to the link's real folder, which may itself be a link.
        const target = path.resolve(await realpath(path.dirname(existing)), await readlink(existing));
        return realpathOfExistingPrefix(path.join(target, ...tail.reverse()), depth + 1);
      }
      const parent = path.dirname(existing);
      if (parent === existing) return absolute;
      tail.push(path.basename(existing));
      existing = parent;
    }
  }
}
