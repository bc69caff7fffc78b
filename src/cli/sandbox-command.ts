/**
 * `geekagent sandbox check`: what the command sandbox needs here, what is missing and how to
 * install it, then a real confined command (sandbox-check.ts, loaded only when run).
 */
import { Command } from 'commander';
import { errorMessage } from '../util/errors.js';
import type { CliIO } from './types.js';

export function sandboxCommand(io: CliIO, setExitCode: (code: number) => void): Command {
  const sandbox = new Command('sandbox').description(
    'the command sandbox (bubblewrap on Linux, Seatbelt on macOS)',
  );
  sandbox
    .command('check')
    .description('say what the sandbox needs here, what is missing and how to install it, and try it')
    .action(async () => {
      try {
        const { checkSandbox } = await import('./sandbox-check.js');
        setExitCode(await checkSandbox(io));
      } catch (error) {
        io.stderr.write(`geekagent sandbox check: ${errorMessage(error)}\n`);
        setExitCode(1);
      }
    });
  return sandbox;
}
