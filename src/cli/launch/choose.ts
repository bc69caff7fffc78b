/**
 * Which bundle runs this command line, decided from argv and the terminal alone (nothing loaded
 * yet): the TUI's (ES modules, Ink) for what looks interactive, the code-cached core for the rest.
 * A wrong guess costs only speed: the core hands an interactive run to the TUI's bundle, and the
 * TUI's bundle runs everything else too.
 */
import { isatty } from 'node:tty';

const SUBCOMMANDS = new Set(['mcp', 'trust', 'help']);

/** True when the run will likely draw the TUI: both ends a terminal, no `-p`, no subcommand. */
export function looksInteractive(args: readonly string[], terminal = isatty(0) && isatty(1)): boolean {
  if (!terminal) return false;
  for (const arg of args) {
    if (arg === '--') break;
    if (arg === '--print' || arg.startsWith('--print=')) return false;
    // `-p`, or a cluster of short flags holding it (`-cp`).
    if (/^-[a-zA-Z]*p/.test(arg)) return false;
  }
  return !SUBCOMMANDS.has(firstWord(args) ?? '');
}

/** The core's cache kind: `geekagent mcp …` compiles other functions than a chat run. */
export function runKind(args: readonly string[]): string {
  return firstWord(args) === 'mcp' ? 'mcp' : 'chat';
}

/** The first argument that is no flag: a subcommand's name (or, after a flag's value, a miss). */
function firstWord(args: readonly string[]): string | undefined {
  return args.find((arg) => !arg.startsWith('-'));
}
