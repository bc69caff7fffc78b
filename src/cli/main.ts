#!/usr/bin/env node
/**
 * Entry point of the `geekagent` binary: checks the Node version, turns on Node's compile cache,
 * loads the CLI and hands it the process's streams, then exits with its code. `--version` answers
 * before anything else loads. Bundled by scripts/bundle.mjs into a small CommonJS file of its own
 * (an ES module would make Node set up its module loader for every run: ~4 ms) that requires
 * `core.cjs` beside it; tsc's unbundled build imports `app.js` instead. docs/launcher.md.
 */
import * as nodeModule from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { userStateDir } from '../config/paths.js';
import type * as App from './app.js';
import { MIN_NODE, nodeTooOld } from './launch/node-check.js';

/** Inlined by the bundler: `--version` reads no other file, and the launcher knows it is bundled. */
declare const __GEEKAGENT_VERSION__: string | undefined;

async function main(): Promise<void> {
  // First, before anything a too-old Node might fail on with a confusing error.
  const tooOld = nodeTooOld(process.versions.node);
  if (tooOld) {
    process.stderr.write(`${tooOld}\n`);
    process.exitCode = 1;
    return;
  }
  const args = process.argv.slice(2);
  const bundled = typeof __GEEKAGENT_VERSION__ === 'string';
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
    const version = bundled ? __GEEKAGENT_VERSION__ : (await import('../config/version.js')).PACKAGE_VERSION;
    process.stdout.write(`${version} (needs Node.js >=${MIN_NODE})\n`);
    return;
  }
  // Node keeps the compiled code of the bundles between runs (in the user's state folder, never
  // the project's); it checks the cache itself and recompiles on any mismatch.
  // GEEKAGENT_CODE_CACHE=off leaves it off (the bench compares).
  if (bundled && process.env.GEEKAGENT_CODE_CACHE !== 'off')
    nodeModule.enableCompileCache(path.join(userStateDir(process.env), 'compile-cache'));
  const app: typeof App = bundled
    ? nodeModule.createRequire(fileURLToPath(import.meta.url))('./core.cjs')
    : await import('./app.js');
  const code = await app.runCli(process.argv, {
    // Read when a run uses it: `-p "…"` never does, and process.stdin on a file (`< /dev/null`
    // in a script) builds an fs stream, loading Node's file streams and promise API (~3 ms).
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
  });
  // A signal that ended the run has set its own exit code (130, 143, …). Not process.exit(): a
  // cancelled tool stuck in a blocking call would keep it from ever returning.
  await app.exitWhenSettled(
    typeof process.exitCode === 'number' && process.exitCode !== 0 ? process.exitCode : code,
  );
}

void main();
