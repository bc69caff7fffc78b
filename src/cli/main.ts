#!/usr/bin/env node
/** Entry point of the `geekagent` binary: hands the process's streams to the CLI and exits with its code. */
import { runCli } from './program.js';

const code = await runCli(process.argv, {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
process.exit(code);
