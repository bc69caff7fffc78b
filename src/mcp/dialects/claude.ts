/**
 * Claude Code (`.mcp.json`; `~/.claude.json`'s top-level `mcpServers` and its per-project
 * `projects[<abs dir>].mcpServers`) and Claude Desktop (`claude_desktop_config.json`). Both use
 * `${VAR}` / `${VAR:-default}` like us.
 */
import path from 'node:path';
import { convertServer, type EntryReader, isObject, keepAsIs, nonEmpty, stdioOrRemote } from './convert.js';
import { appConfigDir } from './locations.js';
import { documentOf, readServersMap } from './servers-map.js';
import type { Dialect, DialectContext } from './types.js';

function claudeJson(context: DialectContext): string {
  const dir = context.env.CLAUDE_CONFIG_DIR;
  return path.join(dir && path.isAbsolute(dir) ? dir : context.homeDir, '.claude.json');
}

function convertClaude(reader: EntryReader): Record<string, unknown> {
  const entry = stdioOrRemote(reader, 'http');
  const oauth = reader.object('oauth');
  reader.leaveOut('headersHelper', 'a command that prints headers; put the header in "headers" with ${VAR}');
  if (oauth === undefined) return entry;
  const mapped: Record<string, unknown> = {};
  if (typeof oauth.clientId === 'string') mapped.clientId = oauth.clientId;
  if (typeof oauth.callbackPort === 'number') mapped.callbackPort = oauth.callbackPort;
  const scopes = nonEmpty(
    typeof oauth.scope === 'string' ? oauth.scope.split(/\s+/).filter(Boolean) : undefined,
  );
  if (scopes) mapped.scopes = scopes;
  for (const key of Object.keys(oauth)) {
    if (!['clientId', 'callbackPort', 'scope'].includes(key))
      reader.leftOut.push(`oauth.${key} (not a GeekAgent setting)`);
  }
  return Object.keys(mapped).length > 0 ? { ...entry, oauth: mapped } : entry;
}

/** One Claude Code entry in our shape (for `--mcp-config`), or why not. */
export function claudeEntry(name: string, raw: unknown): ReturnType<typeof convertServer> {
  return convertServer(name, raw, keepAsIs, convertClaude);
}

export const claudeCode: Dialect = {
  name: 'claude-code',
  locations: (context) => {
    const home = claudeJson(context);
    return [
      { file: home, level: 'project', part: `projects[${JSON.stringify(context.projectDir)}].mcpServers` },
      { file: path.join(context.projectDir, '.mcp.json'), level: 'project' },
      { file: home, level: 'user' },
    ];
  },
  read(text, location, context) {
    const document = documentOf(text);
    if (location.part === undefined)
      return readServersMap('claude-code', location, document.mcpServers, keepAsIs, convertClaude);
    const projects = document.projects;
    if (!isObject(projects)) return undefined;
    const key = Object.keys(projects).find((dir) => path.resolve(dir) === context.projectDir);
    const project = key === undefined ? undefined : projects[key];
    if (!isObject(project)) return undefined;
    return readServersMap('claude-code', location, project.mcpServers, keepAsIs, convertClaude);
  },
};

export const claudeDesktop: Dialect = {
  name: 'claude-desktop',
  locations: (context) => [
    { file: path.join(appConfigDir(context, 'Claude'), 'claude_desktop_config.json'), level: 'user' },
  ],
  read: (text, location) =>
    readServersMap('claude-desktop', location, documentOf(text).mcpServers, keepAsIs, convertClaude),
};
