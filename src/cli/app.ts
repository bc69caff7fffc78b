/**
 * The CLI as the launcher (main.ts) runs it: the program and the process exit. Bundled by
 * scripts/bundle.mjs into `core.cjs`, the one script the launcher compiles with V8's code cache;
 * tsc's unbundled build imports it as a module.
 */
export { exitWhenSettled } from '../process/lifecycle.js';
export { type CliIO, runCli } from './program.js';
