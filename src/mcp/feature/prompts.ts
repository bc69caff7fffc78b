/**
 * Each MCP server prompt becomes a slash command `/mcp__<server>__<prompt> [args]` in the shared
 * command table (so /help lists it); running it fetches the prompt and sends its text as the
 * user turn. Kept in step with the servers' prompt lists (list_changed included).
 */
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/client';
import type { CommandContext, SlashCommand } from '../../commands/types.js';
import type { ExtensionSetup } from '../../extensions/types.js';
import { errorMessage } from '../../util/errors.js';
import type { McpManager } from '../manager.js';

export function promptCommandName(server: string, prompt: string): string {
  return `mcp__${server}__${prompt}`.replace(/\s+/g, '_');
}

/** Arguments as `key=value`, or positional in the prompt's declared order. */
export function promptArguments(prompt: Prompt, args: string[]): Record<string, string> | string {
  const declared = prompt.arguments ?? [];
  const values: Record<string, string> = {};
  for (const arg of args) {
    const at = arg.indexOf('=');
    if (at > 0 && declared.some((d) => d.name === arg.slice(0, at))) {
      values[arg.slice(0, at)] = arg.slice(at + 1);
      continue;
    }
    const next = declared.find((d) => !(d.name in values));
    if (!next) return `too many arguments for prompt ${prompt.name}`;
    values[next.name] = arg;
  }
  const missing = declared.filter((d) => d.required && !(d.name in values)).map((d) => d.name);
  return missing.length > 0
    ? `missing argument${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`
    : values;
}

export function promptText(result: GetPromptResult): string {
  return result.messages
    .map((message) => {
      const content = message.content;
      if (content.type === 'text') return content.text;
      if (content.type === 'resource') {
        const resource = content.resource;
        return 'text' in resource
          ? `[resource ${resource.uri}]\n${resource.text}`
          : `[resource ${resource.uri}]`;
      }
      return `[${content.type}]`;
    })
    .join('\n\n');
}

function promptCommand(manager: McpManager, server: string, prompt: Prompt): SlashCommand {
  const name = promptCommandName(server, prompt.name);
  const argsUsage = (prompt.arguments ?? [])
    .map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`))
    .join(' ');
  return {
    name,
    usage: `/${name}${argsUsage ? ` ${argsUsage}` : ''}`,
    description: `[MCP:${server}] ${prompt.description ?? prompt.title ?? 'prompt'}`,
    run: async (args: string[], ctx: CommandContext) => {
      const values = promptArguments(prompt, args);
      if (typeof values === 'string') {
        ctx.print(`${values} (usage: /${name}${argsUsage ? ` ${argsUsage}` : ''})`, 'error');
        return;
      }
      const connection = manager.connection(server);
      if (!connection) {
        ctx.print(`MCP server ${server} is not configured any more`, 'error');
        return;
      }
      let text: string;
      try {
        // Through the connection: it starts an idle server, applies the server's timeout, and
        // cancels the request when the command is cancelled.
        text = promptText(await connection.getPrompt(prompt.name, values, ctx.signal));
      } catch (error) {
        if (ctx.signal.aborted) return;
        ctx.print(`/${name}: ${errorMessage(error)}`, 'error');
        return;
      }
      if (!ctx.submit) {
        ctx.print(text);
        return;
      }
      await ctx.submit(text);
    },
  };
}

/** Registers one command per prompt of every connected server; drops those that went away. */
export function syncPromptCommands(
  table: ExtensionSetup['commands'],
  manager: McpManager,
  registered: Set<string>,
): void {
  const wanted = new Map<string, SlashCommand>();
  for (const status of manager.statuses()) {
    const connection = manager.connection(status.name);
    for (const prompt of connection?.extras.prompts ?? []) {
      const command = promptCommand(manager, status.name, prompt);
      wanted.set(command.name, command);
    }
  }
  for (const name of registered) {
    if (!wanted.has(name)) {
      table.remove(name);
      registered.delete(name);
    }
  }
  for (const [name, command] of wanted) {
    if (registered.has(name)) table.remove(name);
    else if (table.has(name)) continue; // a built-in of that name wins
    table.add(command);
    registered.add(name);
  }
}
