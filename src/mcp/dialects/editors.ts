/**
 * VS Code (`.vscode/mcp.json` and the user profile's `mcp.json`: `servers` + `inputs`) and Cursor
 * (`.cursor/mcp.json`, `~/.cursor/mcp.json`). Their `${env:X}` becomes our `${X}`, folder and
 * home variables their paths; a server using `${input:…}` (asked by VS Code) cannot be converted.
 */
import path from 'node:path';
import { type EntryReader, editorVariables, stdioOrRemote } from './convert.js';
import { appConfigDir } from './locations.js';
import { documentOf, readServersMap } from './servers-map.js';
import type { Dialect } from './types.js';

function convertEditor(reader: EntryReader): Record<string, unknown> {
  const entry = stdioOrRemote(reader, 'http');
  reader.leaveOut('envFile', 'GeekAgent reads no env files for servers; list the variables in "env"');
  reader.leaveOut('dev', 'VS Code development mode');
  const disabled = reader.boolean('disabled');
  return disabled === undefined ? entry : { ...entry, disabled };
}

export const vscode: Dialect = {
  name: 'vscode',
  locations: (context) => [
    { file: path.join(context.projectDir, '.vscode', 'mcp.json'), level: 'project' },
    { file: path.join(appConfigDir(context, 'Code'), 'User', 'mcp.json'), level: 'user' },
  ],
  read: (text, location, context) =>
    readServersMap(
      'vscode',
      { ...location, part: 'servers' },
      documentOf(text).servers,
      editorVariables(context),
      convertEditor,
    ),
};

export const cursor: Dialect = {
  name: 'cursor',
  locations: (context) => [
    { file: path.join(context.projectDir, '.cursor', 'mcp.json'), level: 'project' },
    { file: path.join(context.homeDir, '.cursor', 'mcp.json'), level: 'user' },
  ],
  read: (text, location, context) =>
    readServersMap('cursor', location, documentOf(text).mcpServers, editorVariables(context), convertEditor),
};
