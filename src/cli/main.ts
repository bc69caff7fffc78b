#!/usr/bin/env node
/**
 * Entry point of the `geekagent` binary: hands the process's streams to the CLI and exits with its
 * code. Wires only, and imports nothing up front: `--version` answers before commander or any
 * layer loads, and the rest of the program is loaded with dynamic imports (see program.ts).
 */
import nodeModule from 'node:module';

// Node 22.1+ keeps compiled code of the bundle's chunks between runs; Node 20 has no such cache.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

/** Inlined by the bundler (scripts/bundle.mjs): `--version` then reads no other file. */
declare const __GEEKAGENT_VERSION__: string | undefined;

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  const version =
    typeof __GEEKAGENT_VERSION__ === 'string'
      ? __GEEKAGENT_VERSION__
      : (await import('../config/version.js')).PACKAGE_VERSION;
  process.stdout.write(`${version}\n`);
} else {
  const [{ exitWhenSettled }, { runCli }] = await Promise.all([
    import('../process/lifecycle.js'),
    import('./program.js'),
  ]);
  const code = await runCli(process.argv, {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
  });
  // A signal that ended the run has set its own exit code (130, 143, …). Not process.exit(): a
  // cancelled tool stuck in a blocking call would keep it from ever returning.
  await exitWhenSettled(
    typeof process.exitCode === 'number' && process.exitCode !== 0 ? process.exitCode : code,
  );
}
