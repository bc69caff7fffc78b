/**
 * Loads the CLI's script bundles (`core.cjs` and the `lib/*.cjs` it requires, built by
 * scripts/bundle.mjs) with V8's code cache. Node 20 keeps no compiled code between runs, and
 * compiling what a run needs took ~30 ms of every start; deserializing it takes a fraction.
 *
 * A bundle is one function expression, `(function (exports, require, module, __filename,
 * __dirname) {…})`, whose first line names its content hash and whether it is pure ASCII. Its cache
 * lives in the user's state folder (never the project's), named by that hash and by this Node
 * (version, arch, flags): V8 itself checks only the source's length. Each file carries a checksum
 * of its data, verified before V8 sees it (cache-file.ts: the format, and the marker that names a
 * cache a start crashed on). A cache that is missing, bad or rejected is written once the run is
 * over — atomically, never through a symlink; one that cannot be read or written costs speed,
 * never the run.
 *
 * On a Node that has its own compile cache (`module.enableCompileCache`, 22.1+), the launcher turns
 * that on instead and the loader compiles each bundle through Node's CommonJS loader
 * (`compileWithNode`), which reads and writes that cache itself: the custom cache's files, names,
 * checksums and crash markers are used only where Node has none.
 */
import { readFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { type CacheName, markLoading, readCache, removeCrashedCaches, writeCache } from './cache-file.js';

const HEADER = /^\/\/geekagent-bundle ([0-9a-f]{16}) (ascii|utf-8)\n/;
/** A bundle requires another by this path (scripts/bundle.mjs keeps them external). */
const BUNDLE_REQUIRE = /^\.\/lib\/[\w.-]+\.cjs$/;

type BundleFunction = (
  exports: object,
  require: NodeJS.Require,
  module: { exports: unknown },
  filename: string,
  dirname: string,
) => void;

interface Loaded {
  exports: unknown;
  /** Undefined when Node's loader compiled it (`nodeCompile`). */
  script: vm.Script | undefined;
  cache: CacheName | undefined;
  /** No cache was read, or V8 rejected it: write one after the run. */
  stale: boolean;
}

export interface BundleLoaderOptions {
  /** The folder of core.cjs (dist/cli). */
  dir: string;
  /** Where caches live (~/.geekagent/code-cache); undefined: no cache read or written. */
  cacheDir: string | undefined;
  /**
   * Which kind of run (launch/choose.ts), as part of the core's cache name: a cache holds the
   * functions its run compiled, so the TUI, print mode and `mcp …` keep one each.
   */
  variant: string;
  /** Says what the loader did about a cache a start crashed on (stderr). */
  notice?: (message: string) => void;
  /**
   * Compile through Node's CommonJS loader, whose own compile cache (if the launcher enabled it)
   * applies; `cacheDir` is then ignored.
   */
  nodeCompile?: boolean;
}

export class BundleLoader {
  readonly #options: BundleLoaderOptions;
  readonly #loaded = new Map<string, Loaded>();
  #checkedCrashes = false;

  constructor(options: BundleLoaderOptions) {
    this.#options = options;
  }

  /** The exports of bundle `name` (relative to dir), evaluated on first use. */
  load(name: string): unknown {
    const known = this.#loaded.get(name);
    if (known) return known.exports;
    const file = path.join(this.#options.dir, name);
    const bytes = readFileSync(file);
    const header = HEADER.exec(bytes.toString('latin1', 0, 64));
    if (!header) throw new Error(`${file} is not a GeekAgent bundle: run npm run build`);
    // An ASCII file reads as a one-byte string, without decoding (and V8 keeps it that compact).
    const source = header[2] === 'ascii' ? bytes.toString('latin1') : bytes.toString('utf8');
    if (this.#options.nodeCompile) return this.#run(name, file, compileWithNode(source, file));
    const cache = this.#cacheName(name, header[1] as string);
    if (cache && !this.#checkedCrashes) this.#removeCrashed(path.dirname(cache.file));
    const cachedData = cache ? readCache(cache.file) : undefined;
    // Verified, yet V8 could still die reading it: the next start then knows which cache it was.
    const unmark = cache && cachedData ? markLoading(cache.file) : undefined;
    let script: vm.Script;
    try {
      script = new vm.Script(source, { filename: file, cachedData });
    } finally {
      unmark?.();
    }
    const module = { exports: {} as unknown };
    const entry: Loaded = {
      exports: module.exports,
      script,
      cache,
      stale: cachedData === undefined || script.cachedDataRejected === true,
    };
    this.#loaded.set(name, entry);
    return this.#run(name, file, script.runInThisContext() as BundleFunction, module, entry);
  }

  /** Runs a compiled bundle with its own module object; a bundle's require finds the others here. */
  #run(
    name: string,
    file: string,
    bundle: BundleFunction,
    module = { exports: {} as unknown },
    entry: Loaded = { exports: module.exports, script: undefined, cache: undefined, stale: false },
  ): unknown {
    this.#loaded.set(name, entry);
    bundle.call(
      module.exports,
      module.exports as object,
      this.#requireFor(file),
      module,
      file,
      path.dirname(file),
    );
    entry.exports = module.exports;
    return entry.exports;
  }

  /** Writes the caches this run had to compile without. Never throws. */
  saveCaches(): void {
    for (const entry of this.#loaded.values()) {
      if (!entry.stale || !entry.cache || !entry.script) continue;
      entry.stale = false;
      try {
        writeCache(entry.cache, entry.script.createCachedData());
      } catch {
        // A read-only or odd state folder: the next run compiles again.
      }
    }
  }

  /** Once per run, before the first cache is read: caches an earlier start crashed on go. */
  #removeCrashed(dir: string): void {
    this.#checkedCrashes = true;
    for (const file of removeCrashedCaches(dir))
      this.#options.notice?.(
        `geekagent: an earlier start crashed while loading the code cache ${file}; it was removed and is ` +
          'written anew. If starts keep crashing, set GEEKAGENT_CODE_CACHE=off or delete that folder.',
      );
  }

  #cacheName(name: string, hash: string): CacheName | undefined {
    const { cacheDir, variant } = this.#options;
    if (!cacheDir) return undefined;
    const base = name.replaceAll('/', '-');
    const prefix = base === 'core.cjs' ? `${base}.${variant}` : base;
    return { prefix, file: path.join(cacheDir, `${prefix}.${hash}.${nodeKey()}.v8`) };
  }

  #requireFor(file: string): NodeJS.Require {
    const nodeRequire = createRequire(file);
    const dir = path.dirname(file);
    const load = (id: string): unknown =>
      BUNDLE_REQUIRE.test(id)
        ? this.load(path.relative(this.#options.dir, path.join(dir, id)))
        : nodeRequire(id);
    return Object.assign(load, {
      resolve: nodeRequire.resolve,
      cache: nodeRequire.cache,
      extensions: nodeRequire.extensions,
      main: nodeRequire.main,
    }) as NodeJS.Require;
  }
}

/** This Node as far as compiled code depends on it: V8's version and flags. */
function nodeKey(): string {
  const text = `${process.version} ${process.arch} ${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  // FNV-1a: a name, not a defence (the folder is the user's own); node:crypto would cost its load.
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

/**
 * The bundle's function, compiled by Node's CommonJS loader (`Module#_compile`, where Node's compile
 * cache is looked up and filled). The header is a line comment, so `module.exports=` followed by the
 * file is the module "export the bundle's function expression".
 */
export function compileWithNode(source: string, file: string): BundleFunction {
  const holder = new Module(file) as Module & { _compile(code: string, filename: string): void };
  holder.filename = file;
  holder.paths = [];
  holder._compile(`module.exports=${source}`, file);
  return holder.exports as BundleFunction;
}
