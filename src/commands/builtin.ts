/** The core slash commands: /help, /undo, /mcp (status, tools, reconnect, logs), /exit. */
import { describeServer, describeServers } from '../mcp/describe.js';
import { describeResources } from '../mcp/resources.js';
import { mcpTrustNote } from '../trust/describe.js';
import { type CommandContext, CommandTable, type SlashCommand } from './types.js';

const help: SlashCommand = {
  name: 'help',
  usage: '/help',
  description: 'list the commands',
  // Lists the servers' prompt commands too, so non-interactive faces wait for them.
  needsServers: true,
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

const undo: SlashCommand = {
  name: 'undo',
  usage: '/undo',
  description: 'restore the last confirmed write or patch (repeat to go further back)',
  idleOnly: true,
  run: async (_args, ctx) => {
    ctx.print(await ctx.app.undo.undo());
  },
};

const exit: SlashCommand = {
  name: 'exit',
  usage: '/exit',
  description: 'stop every MCP server and leave',
  run: async (_args, ctx) => ctx.exit(),
};

const mcp: SlashCommand = {
  name: 'mcp',
  usage: '/mcp [tools|resources|reconnect|logs <server>]',
  description:
    'MCP servers: status and tools; or one server’s tool descriptions, resources, reconnect, recent log',
  needsServers: true,
  run: async (args, ctx) => {
    const [sub, server] = args;
    const manager = ctx.app.mcp;
    if (sub === undefined) {
      const statuses = manager.statuses();
      const untrusted = mcpTrustNote(ctx.app.trust);
      if (untrusted) ctx.print(untrusted);
      if (statuses.length === 0) {
        if (untrusted) return;
        ctx.print(
          '(no MCP servers configured; declare them in .geekagent/mcp.json or run geekagent mcp add)',
        );
        return;
      }
      ctx.print(describeServers(statuses));
      return;
    }
    if (!server || !['tools', 'resources', 'reconnect', 'logs'].includes(sub)) {
      ctx.print(`usage: ${mcp.usage}`, 'error');
      return;
    }
    const status = manager.status(server);
    if (!status) {
      ctx.print(`no MCP server named ${server}`, 'error');
      return;
    }
    if (sub === 'tools') {
      ctx.print(describeServer(status, { descriptions: true }).join('\n'));
    } else if (sub === 'resources') {
      const connection = manager.connection(server);
      ctx.print(
        connection?.connectedClient ? describeResources(connection) : `MCP server ${server} is not connected`,
      );
    } else if (sub === 'reconnect') {
      ctx.print(`reconnecting ${server}…`);
      await manager.reconnect(server);
      ctx.print(describeServer(manager.status(server)!).join('\n'));
    } else {
      const lines = manager.logTail(server, 40) ?? [];
      ctx.print(lines.length === 0 ? `(no stderr output from ${server})` : lines.join('\n'));
    }
  },
};

export function createCommandTable(): CommandTable {
  const table = new CommandTable();
  for (const command of [help, undo, mcp, exit]) table.register(command);
  return table;
}

export type { CommandContext };
