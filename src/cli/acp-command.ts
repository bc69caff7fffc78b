/**
 * `geekagent acp`: wires the ACP agent (src/acp/) to stdin/stdout inside the run's process scope,
 * so every server a session starts is stopped however the run ends. The agent and its SDK load
 * only when this subcommand runs; stdout is the protocol's alone, logs go to stderr.
 */
import { Readable, Writable } from 'node:stream';
import { format } from 'node:util';
import { Command } from 'commander';
import { errorMessage } from '../util/errors.js';
import { withProcessScope } from './process-scope.js';
import type { CliIO } from './types.js';

export function acpCommand(io: CliIO, setExitCode: (code: number) => void): Command {
  return new Command('acp')
    .description(
      'run as an Agent Client Protocol agent on stdin/stdout, for editors (Zed, Neovim, JetBrains…); see docs/editors-and-scripts.md',
    )
    .action(async () => {
      setExitCode(await runAcp(io));
    });
}

async function runAcp(io: CliIO): Promise<number> {
  // Stdout is the protocol's: a stray console.log (ours or a library's) would corrupt it.
  const restore = consoleToStderr(io.stderr);
  try {
    return await serve(io);
  } finally {
    restore();
  }
}

function consoleToStderr(stderr: NodeJS.WritableStream): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const write = (...args: unknown[]) => {
    stderr.write(`${format(...args)}\n`);
  };
  console.log = write;
  console.info = write;
  console.debug = write;
  return () => Object.assign(console, saved);
}

async function serve(io: CliIO): Promise<number> {
  const { startAcpServer } = await import('../acp/server.js');
  return withProcessScope(io.stderr, async ({ tracker, onShutdown }) => {
    try {
      const server = startAcpServer({
        input: Readable.toWeb(io.stdin) as ReadableStream<Uint8Array>,
        output: Writable.toWeb(io.stdout) as WritableStream<Uint8Array>,
        env: io.env,
        tracker,
        log: (line) => io.stderr.write(`${line}\n`),
      });
      onShutdown(() => server.shutdown());
      await server.done;
      return 0;
    } catch (error) {
      io.stderr.write(`geekagent acp: ${errorMessage(error)}\n`);
      return 1;
    }
  });
}
