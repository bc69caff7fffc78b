/**
 * `--mcp-config <file-or-json>` (repeatable): servers for one run, as Claude Code takes them. A
 * value starting with `{` is JSON, anything else a file (relative to the current folder). Both
 * `{"mcpServers": {...}}` in our shape and Claude Code's are accepted: an entry our schema rejects
 * only for Claude Code's own fields (`headersHelper`, OAuth details) is converted, the left-out
 * fields becoming notices. A later
 * value's server replaces an earlier one of the same name. Bad input throws a ConfigError.
 */
import path from 'node:path';
import { ConfigError, parseJsonText, readJsonFile } from '../util/json-file.js';
import { visibleLine } from '../util/terminal-text.js';
import { commandLineEntries, type ServerConfigEntry } from './config.js';
import { checkServerEntry } from './config-schema.js';
import { claudeEntry } from './dialects/claude.js';
import { isObject } from './dialects/convert.js';

export interface CommandLineServers {
  entries: ServerConfigEntry[];
  /** Only these servers: the project and user mcp.json files are not read (`--strict-mcp-config`). */
  strict: boolean;
  notices: string[];
}

export async function readCommandLineServers(
  values: readonly string[],
  options: { projectDir: string; env: NodeJS.ProcessEnv; strict: boolean },
): Promise<CommandLineServers> {
  const byName = new Map<string, ServerConfigEntry>();
  const notices: string[] = [];
  for (const value of values) {
    const { label, document } = await readValue(value);
    const converted = claudeEntries(label, document, notices);
    for (const entry of commandLineEntries(label, converted, options)) {
      if (entry.kind === 'invalid') throw new ConfigError(entry.error, label);
      byName.set(entry.name, entry);
    }
  }
  return { entries: [...byName.values()], strict: options.strict, notices };
}

async function readValue(value: string): Promise<{ label: string; document: unknown }> {
  if (value.trimStart().startsWith('{'))
    return { label: '--mcp-config', document: await parseJsonText(value, '--mcp-config') };
  const file = path.resolve(value);
  const read = await readJsonFile(file);
  if (read.kind === 'missing') throw new ConfigError(`--mcp-config: no such file: ${file}`, file);
  return { label: file, document: read.value };
}

const CLAUDE_ONLY = /^(headersHelper|oauth\.)/;

/** Entries our schema rejects but Claude Code accepts are replaced by their conversion. */
function claudeEntries(label: string, document: unknown, notices: string[]): unknown {
  if (!isObject(document) || !isObject(document.mcpServers)) return document;
  const servers: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(document.mcpServers)) {
    servers[name] = raw;
    if (checkServerEntry(label, name, raw).ok) continue;
    const converted = claudeEntry(name, raw);
    // Only Claude Code's own extra fields: a typo must still fail with our schema's message.
    if (!converted.ok || !converted.server.leftOut.every((field) => CLAUDE_ONLY.test(field))) continue;
    servers[name] = converted.server.entry;
    for (const field of converted.server.leftOut)
      notices.push(visibleLine(`${label}: MCP server ${name}: left out ${field}`));
  }
  return { ...document, mcpServers: servers };
}
