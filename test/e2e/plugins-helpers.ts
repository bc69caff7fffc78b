/**
 * Plugin folders the plugin tests make in their temp dirs: a Claude Code plugin (a command, an
 * agent, a hook, an MCP server started through `${CLAUDE_PLUGIN_ROOT}`), a local marketplace
 * holding one, and a Gemini CLI extension (a TOML command, a context file, a server).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEMO_SERVER } from './harness.js';

async function put(root: string, relative: string, text: string): Promise<void> {
  const file = path.join(root, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

/** A server script inside the plugin that runs the demo server (its packages resolve from the repo). */
const SERVER_SCRIPT = `await import(${JSON.stringify(pathToFileURL(DEMO_SERVER).href)});\n`;

export async function makeClaudePlugin(
  root: string,
  name = 'demo-plug',
  server = 'plugdemo',
): Promise<string> {
  await put(
    root,
    '.claude-plugin/plugin.json',
    JSON.stringify({ name, version: '1.0.0', description: 'a demo plugin' }),
  );
  await put(root, 'commands/hi.md', '---\ndescription: Say hi\n---\nSay hi to $ARGUMENTS.\n');
  await put(root, 'commands/help.md', 'A command named like a built-in.\n');
  await put(
    root,
    'agents/checker.md',
    '---\ndescription: checks things\ntools: Read, Grep\n---\nCheck it.\n',
  );
  await put(
    root,
    'hooks/hooks.json',
    JSON.stringify({
      hooks: {
        UserPromptSubmit: [
          { hooks: [{ type: 'command', command: 'echo "plugin hook at ${CLAUDE_PLUGIN_ROOT}"' }] },
        ],
      },
    }),
  );
  await put(root, 'server.mjs', SERVER_SCRIPT);
  await put(
    root,
    '.mcp.json',
    JSON.stringify({
      mcpServers: { [server]: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/server.mjs'] } },
    }),
  );
  return root;
}

export async function makeMarketplace(root: string): Promise<string> {
  await put(
    root,
    '.claude-plugin/marketplace.json',
    JSON.stringify({
      name: 'local-market',
      owner: { name: 'tests' },
      plugins: [{ name: 'greeter', source: './plugins/greeter', description: 'greets people' }],
    }),
  );
  await put(root, 'plugins/greeter/.claude-plugin/plugin.json', JSON.stringify({ name: 'greeter' }));
  await put(root, 'plugins/greeter/commands/greet.md', 'Greet $1 warmly.\n');
  return root;
}

export async function makeGeminiExtension(root: string): Promise<string> {
  await put(
    root,
    'gemini-extension.json',
    JSON.stringify({
      name: 'gem-ext',
      version: '0.2.0',
      contextFileName: 'GEMINI.md',
      mcpServers: { gemdemo: { command: 'node', args: ['${extensionPath}${/}server.mjs'] } },
      excludeTools: ['run_shell_command'],
    }),
  );
  await put(root, 'GEMINI.md', 'Always answer like a pirate (gem-ext context).\n');
  await put(
    root,
    'commands/review.toml',
    'description = "Review a path"\nprompt = "Review {{args}} carefully."\n',
  );
  await put(root, 'server.mjs', SERVER_SCRIPT);
  return root;
}
