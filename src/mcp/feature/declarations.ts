/**
 * Folder trust's share of MCP: each server of the project's `.geekagent/mcp.json` by its entry (the
 * command line it runs, the URL it reaches), and what a server's `"sandbox"` object grants beyond the sandbox's defaults: folders to write
 * and hosts to reach. Each confined server with grants is its own item, so the trust question shows
 * the holes a repository asks to poke (its `denyRead` only narrows, and is not asked).
 */

import { projectSettingsFile } from '../../settings/files.js';
import {
  type Declaration,
  serverDeclaration,
  serverText,
  type TrustContributor,
} from '../../trust/declarations.js';
import { readProjectServers } from '../config.js';

export const mcpTrust: TrustContributor = {
  name: 'mcp',
  kinds: ['server', 'serverSandbox'],
  read: async ({ projectDir, files }) => {
    const file = projectSettingsFile('mcp.json', projectDir);
    // A broken mcp.json throws its ConfigError, as at start-up.
    return (await readProjectServers(projectDir, files)).flatMap(([name, raw]) => [
      serverDeclaration(file, name, raw),
      ...serverSandboxDeclaration(file, name, raw),
    ]);
  },
  was: (item, before) =>
    item.kind === 'server' ? serverText(item.name, before) : serverSandboxText(item.name, before),
};

export interface SandboxGrants {
  allowWrite: string[];
  hosts: string[];
}

/** The grants of a raw entry, or undefined when it asks for none (or is not a stdio sandbox). */
export function sandboxGrants(raw: unknown): SandboxGrants | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const sandbox = (raw as Record<string, unknown>).sandbox;
  if (typeof sandbox !== 'object' || sandbox === null || Array.isArray(sandbox)) return undefined;
  const fields = sandbox as Record<string, unknown>;
  const strings = (value: unknown): string[] =>
    Array.isArray(value) ? value.map((item) => String(item)) : [];
  const network = fields.network;
  const allowWrite = strings(fields.allowWrite);
  const hosts =
    typeof network === 'object' && network !== null
      ? strings((network as Record<string, unknown>).allow)
      : [];
  return allowWrite.length + hosts.length > 0 ? { allowWrite, hosts } : undefined;
}

export function serverSandboxDeclaration(file: string, name: string, raw: unknown): Declaration[] {
  const grants = sandboxGrants(raw);
  if (!grants) return [];
  const value = JSON.stringify(grants);
  return [
    {
      key: `server-sandbox:${name}`,
      kind: 'serverSandbox',
      name,
      file,
      value,
      text: serverSandboxText(name, value),
    },
  ];
}

/** `MCP server db runs sandboxed but may write "data" and reach "db.example.com"`. */
export function serverSandboxText(name: string, value: string): string {
  let grants: SandboxGrants;
  try {
    grants = JSON.parse(value) as SandboxGrants;
  } catch {
    return `MCP server ${name} sandbox grants: ${value}`;
  }
  const list = (items: readonly string[]) => items.map((item) => JSON.stringify(item)).join(', ');
  const parts: string[] = [];
  if (grants.allowWrite?.length) parts.push(`write ${list(grants.allowWrite)}`);
  if (grants.hosts?.length) parts.push(`reach ${list(grants.hosts)}`);
  return `MCP server ${name} runs sandboxed but may ${parts.join(' and ')}`;
}
