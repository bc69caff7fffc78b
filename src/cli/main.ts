#!/usr/bin/env node
/**
 * Entry point of the `geekagent` binary: picks the bundle for the run (launch/choose.ts), hands it
 * the process's streams and exits with its code. `--version` answers before anything else loads.
 * Bundled by scripts/bundle.mjs into a small CommonJS file of its own (Node sets up its ES-module
 * loader only for runs that need it: ~4 ms); tsc's unbundled build runs `app.js`.
 */
import nodeModule from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { userStateDir } from '../config/paths.js';
import type * as App from './app.js';
import { looksInteractive, runKind } from './launch/choose.js';
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
  // Node 22.1+ keeps compiled code of ES modules between runs (the TUI's bundle); Node 20 has none.
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  const io: App.CliIO = {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
  };
  // The ES-module bundle: `app.mjs` beside the bundled launcher, tsc's `app.js` unbundled.
  const esModules = async () => (await import(bundled ? './app.mjs' : './app.js')) as typeof App;
  const loader =
    bundled && !looksInteractive(args)
      ? new BundleLoader({
          dir: path.dirname(fileURLToPath(import.meta.url)),
          cacheDir:
            process.env.GEEKAGENT_CODE_CACHE === 'off'
              ? undefined
              : path.join(userStateDir(process.env), 'code-cache'),
          variant: runKind(args),
        })
      : undefined;
  const app = loader ? (loader.load('core.cjs') as typeof App) : await esModules();
  const code = await app.runCli(process.argv, io, {
    interactive: loader ? async () => (await esModules()).runCli(process.argv, io) : undefined,
  });
  loader?.saveCaches();
  // A signal that ended the run has set its own exit code (130, 143, …). Not process.exit(): a
  // cancelled tool stuck in a blocking call would keep it from ever returning.
  await app.exitWhenSettled(
    typeof process.exitCode === 'number' && process.exitCode !== 0 ? process.exitCode : code,
  );
}

void main();
