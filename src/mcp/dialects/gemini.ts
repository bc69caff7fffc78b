/**
 * Gemini CLI (`~/.gemini/settings.json`, project `.gemini/settings.json`): `mcpServers` with
 * command/args/env/cwd, `url` (SSE) or `httpUrl` (Streamable HTTP), headers, timeout (ms),
 * includeTools/excludeTools; `mcp.excluded` / `mcp.allowed` server lists become `disabled`.
 * `trust` (skip every confirmation) is not converted: GeekAgent's rules decide.
 */
import path from 'node:path';
import {
  CannotConvert,
  type EntryReader,
  geminiVariables,
  isObject,
  nonEmpty,
  nonEmptyRecord,
} from './convert.js';
import { documentOf, readServersMap } from './servers-map.js';
import type { Dialect } from './types.js';

function convertGemini(reader: EntryReader, disabled: boolean): Record<string, unknown> {
  const common = {
    timeout: wholeMs(reader.number('timeout')),
    includeTools: nonEmpty(reader.strings('includeTools')),
    excludeTools: nonEmpty(reader.strings('excludeTools')),
    disabled: disabled ? true : undefined,
  };
  reader.leaveOut(
    'trust',
    'GeekAgent asks before MCP calls unless a rule allows them: --allow or GeekAgent.json',
  );
  reader.leaveOut('description', 'shown by Gemini CLI only');
  reader.leaveOut('oauth', 'GeekAgent discovers OAuth itself; see "oauth" in mcp.json for fixed settings');
  reader.leaveOut('authProviderType', 'not a GeekAgent setting');
  const command = reader.string('command');
  if (command !== undefined) {
    return {
      command,
      args: nonEmpty(reader.strings('args')),
      env: nonEmptyRecord(reader.record('env')),
      cwd: reader.string('cwd'),
      ...common,
    };
  }
  const httpUrl = reader.string('httpUrl');
  const url = reader.string('url');
  if (httpUrl === undefined && url === undefined) {
    if (reader.has('tcp')) throw new CannotConvert('tcp (websocket) servers are not supported');
    throw new CannotConvert('none of "command", "httpUrl" or "url" is given');
  }
  return {
    type: httpUrl !== undefined ? 'http' : 'sse',
    url: httpUrl ?? url,
    headers: nonEmptyRecord(reader.record('headers')),
    ...common,
  };
}

function wholeMs(value: number | undefined): number | undefined {
  return value === undefined ? undefined : Math.max(1, Math.round(value));
}

export const gemini: Dialect = {
  name: 'gemini',
  locations: (context) => [
    { file: path.join(context.projectDir, '.gemini', 'settings.json'), level: 'project' },
    { file: path.join(context.homeDir, '.gemini', 'settings.json'), level: 'user' },
  ],
  read(text, location) {
    const document = documentOf(text);
    const lists = isObject(document.mcp) ? document.mcp : {};
    const names = (value: unknown) =>
      Array.isArray(value) ? new Set(value.filter((item) => typeof item === 'string')) : undefined;
    const excluded = names(lists.excluded);
    const allowed = names(lists.allowed);
    return readServersMap('gemini', location, document.mcpServers, geminiVariables, (reader, name) =>
      convertGemini(reader, excluded?.has(name) === true || (allowed !== undefined && !allowed.has(name))),
    );
  },
};
