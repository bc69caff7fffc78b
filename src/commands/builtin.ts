/** The core slash commands every face has: /help and /exit. Features add theirs through extensions. */
import type { SlashCommand } from './types.js';

const help: SlashCommand = {
  name: 'help',
  usage: '/help',
  description: 'list the commands',
  // Lists the servers' prompt commands too, so non-interactive faces wait for those up within the grace.
  needsReady: true,
  run: async (_args, ctx) => {
    const width = Math.max(...ctx.commands.list().map((command) => command.usage.length));
    ctx.print(
      ctx.commands
        .list()
        .map((command) => `${command.usage.padEnd(width)}  ${command.description}`)
        .join('\n'),
    );
  },
};

const exit: SlashCommand = {
  name: 'exit',
  usage: '/exit',
  description: 'stop every MCP server and leave',
  run: async (_args, ctx) => ctx.exit(),
};

export function coreCommands(): SlashCommand[] {
  return [help, exit];
}
