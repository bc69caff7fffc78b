/** `geekagent mcp login` / `logout`: OAuth for remote servers (tokens under the user state dir). */
import { authDirectory } from '../app/create-mcp.js';
import { canOpenBrowser, interactivePrompter } from '../mcp/auth/prompters.js';
import { loadMcpConfig } from '../mcp/config.js';
import { tokenStoreFor } from '../mcp/remote-transport.js';
import { err, type McpContext, missingServer, out, withManager } from './mcp-context.js';

export async function login(ctx: McpContext, name: string): Promise<number> {
  const prompter = interactivePrompter({
    output: ctx.io.stderr,
    input: ctx.io.stdin,
    openBrowser: canOpenBrowser(ctx.io.env),
  });
  return withManager(
    ctx,
    (server) => server === name,
    async (manager, _scope, trust) => {
      const definition = manager.connection(name)?.definition;
      if (!definition) return missingServer(ctx, trust, name);
      if (definition.transport === 'stdio') {
        err(ctx, `${name} is a stdio server; only remote (http, sse) servers log in\n`);
        return 1;
      }
      manager.start();
      await manager.whenSettled();
      const state = manager.status(name)!.state;
      if (state.state !== 'connected') {
        err(
          ctx,
          `login to ${name} failed: ${state.state === 'failed' || state.state === 'needs_auth' ? state.error : state.state}\n`,
        );
        return 1;
      }
      out(ctx, `Logged in to ${name} (${state.tools.length} tools)\n`);
      return 0;
    },
    prompter,
  );
}

export async function logout(ctx: McpContext, name: string): Promise<number> {
  // Forgetting tokens contacts nothing: every configured server is eligible, trusted or not.
  const entries = await loadMcpConfig({
    projectDir: ctx.projectDir(),
    homeDir: ctx.homeDir,
    userDir: ctx.userDir,
    env: ctx.io.env,
  });
  const entry = entries.find((candidate) => candidate.name === name);
  if (
    entry?.kind !== 'ok' ||
    entry.definition.transport === 'stdio' ||
    entry.definition.transport === 'sdk'
  ) {
    err(ctx, `no remote MCP server named ${name} (see geekagent mcp list)\n`);
    return 1;
  }
  const store = tokenStoreFor(entry.definition, authDirectory(ctx.userDir));
  const removed = await store.clear();
  out(ctx, removed ? `Logged out of ${name} (removed ${store.file})\n` : `${name} had no saved login\n`);
  return 0;
}
