/**
 * The MCP section as `geekagent config` shows it: each configured server by name, with the scope
 * and file it came from (the same load as the run's, through the run's settings reads), summarised
 * as its transport and command or address — never its env, headers or query, which may hold
 * secrets. A project server named like a user server is a problem line, as at start-up.
 */
import type { Setting } from '../settings/effective.js';
import type { SettingsFiles } from '../settings/files.js';
import { type ConfigDirs, conflictNotice, loadMcpServers } from './config.js';

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
      value: entry.kind === 'ok' ? serverSummary(entry.definition, entry.written) : `invalid: ${entry.error}`,
      source: { kind: 'file', scope: source === 'project' ? 'project' : 'user', file, key },
    };
  });
  return { settings, problems: loaded.conflicts.map(conflictNotice) };
}

/**
 * A server as listed: its transport and command or address as the file writes them (`${VAR}` not
 * expanded: a value from the environment may be a secret), never its env, headers or query.
 */
function serverSummary(
  definition: { transport: string },
  written: { command?: string; url?: string } = {},
): string {
  if (written.command !== undefined) return `${definition.transport}: ${written.command}`;
  if (written.url === undefined) return definition.transport;
  // Without the query, the fragment and any user:password@ (a URL with ${VAR} may not parse).
  const address = written.url.replace(/[?#].*$/s, '').replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/]*@/i, '$1');
  return `${definition.transport}: ${address}`;
}
