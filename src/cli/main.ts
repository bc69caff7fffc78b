#!/usr/bin/env node
/** Entry point of the `geekagent` binary: hands the process's streams to the CLI and exits with its code. */
import { exitWhenSettled } from '../process/lifecycle.js';
import { runCli } from './program.js';

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
