/**
 * `geekagent mcp add-json <name> '<json>' [--scope project|user]`: one server entry given as JSON,
 * in our mcp.json shape, checked with the same schema as the file so an error names the field (an
 * unknown key is an error, not dropped: it is usually a typo). An existing name is refused.
 */
import { Command } from 'commander';
import { decideFolderTrust } from '../boot/folder-trust.js';
import { mcpConfigPath } from '../mcp/config.js';
import { addServersToConfig } from '../mcp/config-edit.js';
import { checkServerEntry } from '../mcp/config-schema.js';
import { serverDeclaration } from '../trust/declarations.js';
import { TRUST_HINT } from '../trust/describe.js';
import { parseJsonText } from '../util/json-file.js';
import { visible } from '../util/terminal-text.js';
import { type DialectCommandContext, runReporting, scopeOption } from './mcp-import.js';

const LABEL = 'geekagent mcp add-json';

export function addJsonCommand(ctx: DialectCommandContext): Command {
  return new Command('add-json')
    .description(
      `add a server from a JSON entry: geekagent mcp add-json <name> '{"command":"node","args":["server.js"]}'`,
    )
    .argument('<name>', 'the name to give the server (the tools become mcp_<name>_<tool>)')
    .argument('<json>', 'the entry, as in mcp.json ({"command": …} or {"type": "http", "url": …})')
    .addOption(
      scopeOption('which config file: project (.geekagent/mcp.json) or user (~/.geekagent/mcp.json)').default(
        'project',
      ),
    )
    .action((name: string, json: string, options: { scope: 'project' | 'user' }) =>
      runReporting(ctx, () => addJson(ctx, name, json, options.scope)),
    );
}

async function addJson(
  ctx: DialectCommandContext,
  name: string,
  json: string,
  scope: 'project' | 'user',
): Promise<number> {
  const out = (text: string) => ctx.io.stdout.write(visible(text));
  const err = (text: string) => ctx.io.stderr.write(visible(text));
  const entry = await parseJsonText(json, LABEL);
  const check = checkServerEntry(LABEL, name, entry);
  if (!check.ok) {
    err(`${check.error}\n`);
    return 1;
  }
  const projectDir = ctx.projectDir();
  const file = mcpConfigPath(scope, { projectDir, homeDir: ctx.homeDir, userDir: ctx.userDir });
  const trust =
    scope === 'project'
      ? await decideFolderTrust({ projectDir, env: ctx.io.env, homeDir: ctx.homeDir })
      : undefined;
  const result = await addServersToConfig(file, [[name, check.entry]], { replace: false });
  if (result.kept.length > 0) {
    err(`MCP server ${name} already exists in ${file}; remove it first: geekagent mcp remove ${name}\n`);
    return 1;
  }
  out(`Added MCP server ${name} to ${file}\n`);
  if (trust?.state === 'trusted') await trust.remember?.([serverDeclaration(file, name, check.entry)]);
  else if (trust?.state === 'untrusted')
    err(`note: this folder is not trusted, so its servers do not start: ${TRUST_HINT}\n`);
  return 0;
}
