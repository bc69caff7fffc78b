/**
 * The CLI as the launcher (main.ts) runs it: the program and the process exit. Bundled twice
 * (scripts/bundle.mjs): as ES modules split into lazily loaded chunks (`app.js`, the TUI's
 * bundle), and as one code-cached script without the TUI (`core.cjs`, every other run).
 */
export { exitWhenSettled } from '../process/lifecycle.js';
export { type CliIO, type LaunchHost, runCli } from './program.js';
