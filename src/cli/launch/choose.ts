/**
 * The kind of run, read from argv and the terminal alone (nothing else is loaded yet): it names the
 * core's code cache, which holds the functions its run compiled — the TUI, print mode and the `mcp`
 * commands compile different parts of the one script, so each keeps a cache of its own.
 */
import { isatty } from 'node:tty';

export type RunKind = 'tui' | 'print' | 'mcp';

const SUBCOMMANDS = new Set(['mcp', 'trust', 'help']);

export function runKind(args: readonly string[], terminal = isatty(0) && isatty(1)): RunKind {
  const first = args.find((arg) => !arg.startsWith('-'));
  if (first === 'mcp') return 'mcp';
  return looksInteractive(args, terminal) ? 'tui' : 'print';
}

/** True when the run will likely draw the TUI: both ends a terminal, no `-p`, no subcommand. */
function looksInteractive(args: readonly string[], terminal: boolean): boolean {
  if (!terminal) return false;
  for (const arg of args) {
    if (arg === '--') break;
    if (arg === '--print' || arg.startsWith('--print=')) return false;
    // `-p`, or a cluster of short flags holding it (`-cp`).
    if (/^-[a-zA-Z]*p/.test(arg)) return false;
  }
  // The first argument that is no flag: a subcommand's name (or, after a flag's value, a miss).
  return !SUBCOMMANDS.has(args.find((arg) => !arg.startsWith('-')) ?? '');
}
