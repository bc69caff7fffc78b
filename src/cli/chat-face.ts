/**
 * The chat face chooser: print mode for `-p` or when stdin/stdout is not a terminal (never draw a
 * UI into a pipe), otherwise the interactive TUI. Imports neither face up front: print mode never
 * loads Ink, and the TUI draws its first frame before the app's modules load (it is handed a
 * `createApp` that imports them when called).
 */
import path from 'node:path';
import { cleanupWithin, withProcessScope } from './process-scope.js';
import type { ChatOptions, CliIO } from './types.js';

export async function runChat(options: ChatOptions, io: CliIO): Promise<number> {
  const interactive = options.print === undefined && io.stdin.isTTY === true && io.stdout.isTTY === true;
  if (!interactive) {
    // `geekagent "…"` into a pipe, or `geekagent "…" -p`: the positional prompt is print mode's.
    const print =
      options.print === true || options.print === undefined
        ? (options.prompt ?? options.print)
        : options.print;
    return (await import('./run-chat.js')).runChat({ ...options, print }, io);
  }
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const { runTui } = await import('../tui/run-tui.js');
  return runTui({
    io,
    cwd,
    trustFlag: options.trust === true,
    ...(options.prompt !== undefined ? { prompt: options.prompt } : {}),
    withScope: (body) => withProcessScope(io.stderr, body),
    cleanupWithin: (work) => cleanupWithin(work),
    createApp: async (face) => {
      const [{ createApp }, { flagOptions }] = await Promise.all([
        import('../app/create-app.js'),
        import('./flag-options.js'),
      ]);
      return createApp({ ...flagOptions(cwd, options, io), ...face });
    },
  });
}
