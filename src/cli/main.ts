#!/usr/bin/env node
/**
 * Entry point of the `geekagent` binary: loads the CLI and hands it the process's streams, then
 * exits with its code. `--version` answers before anything else loads. Bundled by
 * scripts/bundle.mjs into a small CommonJS file of its own (an ES module would make Node set up
 * its module loader for every run: ~4 ms) that compiles `core.cjs` with Node's own compile cache
 * where Node has one (22.1+), else with a V8 code cache of its own (launch/code-cache.ts); tsc's
 * unbundled build imports `app.js` instead.
 */
import * as nodeModule from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { userStateDir } from '../config/paths.js';
import type * as App from './app.js';
import { runKind } from './launch/choose.js';
import { BundleLoader } from './launch/code-cache.js';

/** Node's own compile cache (22.1+; the types are Node 20's). */
const { enableCompileCache } = nodeModule as { enableCompileCache?: (dir?: string) => unknown };

/** Inlined by the bundler: `--version` reads no other file, and the launcher knows it is bundled. */
declare const __GEEKAGENT_VERSION__: string | undefined;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const bundled = typeof __GEEKAGENT_VERSION__ === 'string';
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
    const version = bundled ? __GEEKAGENT_VERSION__ : (await import('../config/version.js')).PACKAGE_VERSION;
    process.stdout.write(`${version}\n`);
    return;
  }
  const choice = bundled ? codeCache(process.env.GEEKAGENT_CODE_CACHE) : undefined;
  const loader = bundled
    ? new BundleLoader({
        dir: path.dirname(fileURLToPath(import.meta.url)),
        cacheDir: choice === 'v8' ? path.join(userStateDir(process.env), 'code-cache') : undefined,
        variant: runKind(args),
        notice: (message) => process.stderr.write(`${message}\n`),
        nodeCompile: choice === 'node',
      })
    : undefined;
  if (choice === 'node') enableCompileCache?.(path.join(userStateDir(process.env), 'compile-cache'));
  // Also when a signal ends the run (its shutdown exits the process): the next start is cached.
  if (loader) process.once('exit', () => loader.saveCaches());
  const app = loader ? (loader.load('core.cjs') as typeof App) : await import('./app.js');
  const code = await app.runCli(process.argv, {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
  });
  loader?.saveCaches();
  // A signal that ended the run has set its own exit code (130, 143, …). Not process.exit(): a
  // cancelled tool stuck in a blocking call would keep it from ever returning.
  await app.exitWhenSettled(
    typeof process.exitCode === 'number' && process.exitCode !== 0 ? process.exitCode : code,
  );
}

/**
 * Which compiled-code cache this start uses: Node's own where it has one (22.1+), else the custom
 * V8 cache; GEEKAGENT_CODE_CACHE=off none, `v8` or `node` forces one (a bench compares them).
 */
function codeCache(setting: string | undefined): 'v8' | 'node' | 'off' {
  if (setting === 'off' || setting === 'v8' || setting === 'node') return setting;
  return typeof enableCompileCache === 'function' ? 'node' : 'v8';
}

void main();
