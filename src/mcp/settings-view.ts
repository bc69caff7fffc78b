/**
 * The MCP section as `geekagent config` shows it: each configured server by name, with the scope
 * and file it came from (the same load as the run's, through the run's settings reads), summarised
 * as its transport and command or address — never its env, headers or query, which may hold
 * secrets. A project server named like a user server is a problem line, as at start-up.
 */
import type { Setting } from '../settings/effective.js';
import type { SettingsFiles } from '../settings/files.js';
import { splitUrlText } from '../util/url-text.js';
import { type ConfigDirs, conflictNotice, loadMcpServers } from './config.js';
import type { McpServerDefinition } from './server-definition.js';

export async function describeMcpSettings(options: {
  files: SettingsFiles;
  dirs: ConfigDirs;
  env: NodeJS.ProcessEnv;
  /** The folder is trusted: its project servers are read (else only the user's). */
  trusted: boolean;
}): Promise<{ settings: Setting[]; problems: string[] }> {
  const loaded = await loadMcpServers({
    ...options.dirs,
    env: options.env,
    project: options.trusted,
    files: options.files,
  });
  const settings = loaded.entries.map((entry): Setting => {
    const source = entry.kind === 'ok' ? entry.definition.source : entry.source;
    const file = entry.kind === 'ok' ? entry.definition.file : entry.file;
    const key = `mcpServers.${entry.name}`;
    return {
      key,
      value: entry.kind === 'ok' ? serverSummary(entry.definition) : `invalid: ${entry.error}`,
      source: { kind: 'file', scope: source === 'project' ? 'project' : 'user', file, key },
    };
  });
  return { settings, problems: loaded.conflicts.map(conflictNotice) };
}

/**
 * A server as listed: its transport and command or address as the file writes them (`${VAR}` not
 * expanded: a value from the environment may be a secret), never its args, env, headers or query.
 */
function serverSummary(definition: McpServerDefinition): string {
  if (definition.transport === 'stdio')
    return `${definition.transport}: ${definition.written?.command ?? definition.command}`;
  if (definition.transport === 'sdk') return definition.transport;
  // Without the query, the fragment and any user:password@.
  const { scheme, address } = splitUrlText(definition.written?.url ?? definition.url);
  return `${definition.transport}: ${scheme}${address}`;
}
