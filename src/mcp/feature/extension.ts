/**
 * MCP as an extension: the manager's servers start with the face (lazy ones with a cached tool
 * list on first use); the first model request waits for those without a cache only for the
 * start-up grace (mcp/start-grace.ts: later ones not at all; a slow server's tools join as they
 * arrive, tool search waits for them); `@server:uri` mentions attach resources to
 * the input; each server prompt is a slash command; `/mcp` inspects them; the panel's MCP row.
 * The manager (mcp/manager.ts) keeps the extension's dynamic tool set (`tools.set('mcp')`) in step
 * with the servers' tools — the configured ones' and those an active skill adds — and never
 * touches the registry itself; the extension owns its lifecycle (start, ready within the grace,
 * settled, dispose).
 */
import type { SlashCommand } from '../../commands/types.js';
import { type Extension, PANEL_ORDER } from '../../extensions/types.js';
import type { FolderTrust } from '../../trust/decide.js';
import { mcpTrustNote, panelMcpWithTrust } from '../../trust/describe.js';
import { raceAbort } from '../../util/race-abort.js';
import { describeServer, describeServers } from '../describe.js';
import type { McpManager } from '../manager.js';
import { attachResourceUpdates, resourceUpdatesPending } from '../resource-updates.js';
import { describeResources, expandResourceMentions, mentionsResources } from '../resources.js';
import type { StartGrace } from '../start-grace.js';
import { panelMcpLine, type ServerStatus } from '../status.js';
import { syncPromptCommands } from './prompts.js';

export interface McpExtensionOptions {
  acceptsMedia: boolean;
  /** An untrusted folder's servers are off: `/mcp` and the panel say so. */
  trust?: FolderTrust;
  /** More lines for `/mcp` (tool search: how many tools are deferred). */
  describeMore?: () => string | undefined;
  /** How long model requests wait for servers still starting (create-app makes it). */
  grace: StartGrace;
}

export function mcpExtension(manager: McpManager, options: McpExtensionOptions): Extension {
  let unsubscribe: (() => void) | undefined;
  return {
    name: 'mcp',
    setup(host) {
      const tools = host.tools.set('mcp');
      manager.attach(tools);
      tools.arrivals?.((name, signal) => options.grace.toolOf(name, signal));
      const prompts = new Set<string>();
      const failures = startFailures(manager.statuses());
      unsubscribe = manager.onChange(() => {
        syncPromptCommands(host.commands, manager, prompts);
        // The first request does not wait for a slow server: one that then fails to start is told
        // (print mode says nothing else about servers still starting).
        for (const line of failures(manager.statuses())) host.notice(line, 'error');
        host.changed();
      });
      // Idle servers' prompts (from the cache) are commands from the start.
      syncPromptCommands(host.commands, manager, prompts);
      host.commands.add(mcpCommand(manager, options.trust, options.describeMore));
      host.panel(() => {
        const line = panelMcpLine(manager.statuses());
        return {
          label: 'MCP',
          value: options.trust ? panelMcpWithTrust(line, options.trust) : line,
          order: PANEL_ORDER.mcp,
        };
      });
      // A sub-agent's request carries MCP tools too: the same grace (one per run) applies. Nothing is
      // said while it runs: it is short, and print mode stays quiet unless a server fails.
      host.on.beforeRequest(
        async (request) => {
          await options.grace.wait(request.signal);
          // A call that changed a server's tools (its list_changed came before its answer) is
          // followed by a request that declares the new ones.
          await raceAbort(manager.relistsSettled(), request.signal);
        },
        { subAgents: 'same' },
      );
      // `@` in the TUI completes resources as `@<server>:<uri>` (what the mention below reads).
      host.completion(async (word) =>
        manager
          .statuses()
          .flatMap((status) =>
            (manager.connection(status.name)?.extras.resources ?? [])
              .map((resource) => `@${status.name}:${resource.uri}`)
              .filter((mention) => mention.startsWith(word)),
          ),
      );
      host.on.input(async (input, turn) => {
        // Tool lists past their ttl are listed again; the turn's first request waits for them.
        manager.refreshStale();
        const mentions = mentionsResources(input);
        if (!mentions && !resourceUpdatesPending(manager.connections())) return input;
        const read = { acceptsMedia: options.acceptsMedia, signal: turn.signal };
        let text = input;
        if (mentions) {
          await waitForServers(manager, turn.signal, turn.notify);
          const expanded = await expandResourceMentions(input, (server) => manager.connection(server), read);
          for (const mention of expanded.attached) turn.notify(`attached ${mention}`);
          for (const problem of expanded.problems) turn.notify(problem);
          text = expanded.text;
        }
        // Attached earlier and changed since (the server said so): the new content goes along.
        const updates = await attachResourceUpdates(text, manager.connections(), read);
        for (const mention of updates.updated) turn.notify(`${mention} changed: attached its new content`);
        for (const problem of updates.problems) turn.notify(problem);
        return updates.text;
      });
    },
    start: () => manager.start(),
    // Commands (print mode's `/mcp`, stream-json's init line) see what the first request would:
    // the servers up within the start-up grace; those still starting show as starting.
    ready: (signal) => options.grace.over(signal),
    // A command not known yet may be a slow server's prompt: it waits for every server.
    settled: (signal) => waitForServers(manager, signal, () => undefined),
    dispose: async () => {
      unsubscribe?.();
      await manager.shutdown();
    },
  };
}

/**
 * Each server that failed to start (no retry left) after `initial` (a broken entry failed from the
 * start: its config problem is told elsewhere), once per run.
 */
function startFailures(initial: readonly ServerStatus[]): (statuses: readonly ServerStatus[]) => string[] {
  const told = new Set(
    initial.filter((status) => status.state.state === 'failed').map((status) => status.name),
  );
  return (statuses) => {
    const lines: string[] = [];
    for (const { name, state } of statuses) {
      if (state.state !== 'failed' || state.during !== 'startup' || state.retry || told.has(name)) continue;
      told.add(name);
      lines.push(`MCP server ${name} failed to start: ${state.error} (/mcp logs ${name})`);
    }
    return lines;
  };
}

/**
 * The wait before a model request: until every server without a cached tool list settled (lazy
 * servers with a cache are never waited for), or the turn is cancelled.
 */
export async function waitForServers(
  manager: McpManager,
  signal: AbortSignal,
  notify: (message: string) => void,
): Promise<void> {
  if (manager.settled) return;
  notify(`waiting for MCP servers: ${manager.pending().join(', ')}`);
  await raceAbort(manager.whenSettled(), signal);
}

function mcpCommand(
  manager: McpManager,
  trust: FolderTrust | undefined,
  describeMore: (() => string | undefined) | undefined,
): SlashCommand {
  const command: SlashCommand = {
    name: 'mcp',
    usage: '/mcp [tools|resources|reconnect|logs <server>]',
    description:
      'MCP servers: status and tools; or one server’s tool descriptions, resources, reconnect, recent log',
    needsReady: true,
    run: async (args, ctx) => {
      const [sub, server] = args;
      if (sub === undefined) {
        const statuses = manager.statuses();
        const untrusted = trust ? mcpTrustNote(trust) : undefined;
        if (untrusted) ctx.print(untrusted);
        if (statuses.length === 0) {
          if (untrusted) return;
          ctx.print(
            '(no MCP servers configured; declare them in .geekagent/mcp.json or run geekagent mcp add)',
          );
          return;
        }
        ctx.print(describeServers(statuses));
        const more = describeMore?.();
        if (more) ctx.print(more);
        return;
      }
      if (!server || !['tools', 'resources', 'reconnect', 'logs'].includes(sub)) {
        ctx.print(`usage: ${command.usage}`, 'error');
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
        await connection?.ensureStarted();
        ctx.print(
          connection?.state.state === 'connected'
            ? describeResources(connection)
            : `MCP server ${server} is not connected`,
        );
      } else if (sub === 'reconnect') {
        ctx.print(`reconnecting ${server}…`);
        await manager.reconnect(server);
        ctx.print(describeServer(manager.status(server)!).join('\n'));
      } else {
        await manager.logSettled(server);
        const lines = manager.logTail(server, 40) ?? [];
        ctx.print(lines.length === 0 ? `(no stderr output from ${server})` : lines.join('\n'));
      }
    },
  };
  return command;
}
