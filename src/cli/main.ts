#!/usr/bin/env node
/**
 * Entry point of the `geekagent` binary: loads the CLI and hands it the process's streams, then
 * exits with its code. `--version` answers before anything else loads. Bundled by
 * scripts/bundle.mjs into a small CommonJS file of its own (an ES module would make Node set up
 * its module loader for every run: ~4 ms) that compiles `core.cjs` with V8's code cache
 * (launch/code-cache.ts); tsc's unbundled build imports `app.js` instead.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { userStateDir } from '../config/paths.js';
import type * as App from './app.js';
import { runKind } from './launch/choose.js';
import { BundleLoader } from './launch/code-cache.js';

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
  const loader = bundled
    ? new BundleLoader({
        dir: path.dirname(fileURLToPath(import.meta.url)),
        cacheDir:
          process.env.GEEKAGENT_CODE_CACHE === 'off'
            ? undefined
            : path.join(userStateDir(process.env), 'code-cache'),
        variant: runKind(args),
        notice: (message) => process.stderr.write(`${message}\n`),
      })
    : undefined;
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

void main();
