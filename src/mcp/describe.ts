/**
 * Text and JSON views of server statuses, shared by `geekagent mcp list/get` and the TUI's `/mcp`:
 * `demo (2 tools)` with the tool names beneath, or `× name: error` — the seed's format.
 * Names, descriptions, errors (a server's stderr line) and commands come from servers and config
 * files: each goes through `visibleLine`, so none can move the cursor or fake a line of its own.
 */
import { visibleLine } from '../util/terminal-text.js';
import { joinUrlText, splitUrlText } from '../util/url-text.js';
import type { McpServerDefinition, ServerSandbox } from './config.js';
import type { ServerState, ServerStatus } from './status.js';

export function stateLabel(state: ServerState): string {
  switch (state.state) {
    case 'connected':
      return `${state.tools.length} tool${state.tools.length === 1 ? '' : 's'}`;
    case 'connecting':
      return state.attempt > 1 ? `reconnecting (attempt ${state.attempt})` : 'connecting';
    case 'failed':
      return state.retry
        ? `${visibleLine(state.error)}; restarting in ${Math.ceil(state.retry.inMs / 1000)} s (attempt ${state.retry.attempt} of ${state.retry.maxAttempts})`
        : visibleLine(state.error);
    case 'needs_auth':
      return `needs login: ${visibleLine(state.error)}`;
    case 'disabled':
      return 'disabled';
    case 'idle':
      return `${state.tools.length} tool${state.tools.length === 1 ? '' : 's'}, idle: starts on first use`;
  }
}

/** One block per server: `demo (2 tools)` + indented tool names, or `× name: error`. */
export function describeServer(status: ServerStatus, options: { descriptions?: boolean } = {}): string[] {
  const s = status.state;
  const name = visibleLine(status.name);
  const group = status.group ? `, ${visibleLine(status.group)}` : '';
  if (s.state === 'failed' || s.state === 'needs_auth')
    return [`× ${name}${group ? ` (${group.slice(2)})` : ''}: ${stateLabel(s)}`, ...warningLines(status)];
  const extra = `${status.sandboxed ? ', sandboxed' : ''}${group}`;
  if (s.state !== 'connected' && s.state !== 'idle') return [`${name} (${stateLabel(s)}${extra})`];
  const tools = s.tools.map((tool) =>
    options.descriptions && tool.description
      ? `  ${visibleLine(tool.modelName)} — ${firstLine(tool.description)}`
      : `  ${visibleLine(tool.modelName)}`,
  );
  return [`${name} (${stateLabel(s)}${extra})`, ...tools, ...warningLines(status)];
}

function warningLines(status: ServerStatus): string[] {
  return status.warnings.map((warning) => `  ! ${visibleLine(warning)}`);
}

function firstLine(text: string): string {
  const line = visibleLine(text.split('\n', 1)[0] ?? '');
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

export function describeServers(
  statuses: readonly ServerStatus[],
  options: { descriptions?: boolean } = {},
): string {
  return statuses.flatMap((status) => describeServer(status, options)).join('\n');
}

export interface ServerListEntry {
  name: string;
  status: ServerState['state'];
  error?: string;
  /** Runs confined by the kernel sandbox. */
  sandboxed?: true;
  tools: Array<{ name: string; originalName: string; description: string }>;
}

/** `geekagent mcp list --json`: `[{"name","status","error"?,"tools":[{"name","originalName","description"}]}]`. */
export function serverListJson(statuses: readonly ServerStatus[]): ServerListEntry[] {
  return statuses.map((status) => {
    const s = status.state;
    return {
      name: status.name,
      status: s.state,
      ...(s.state === 'failed' || s.state === 'needs_auth' ? { error: s.error } : {}),
      ...(status.sandboxed ? { sandboxed: true as const } : {}),
      tools:
        s.state === 'connected' || s.state === 'idle'
          ? s.tools.map((tool) => ({
              name: tool.modelName,
              originalName: tool.originalName,
              description: tool.description,
            }))
          : [],
    };
  });
}

function sandboxLine(sandbox: ServerSandbox): string {
  const parts = [sandbox.from === 'default' ? 'confined (your "projectServers" default)' : 'confined'];
  if (sandbox.allowWrite.length > 0) parts.push(`also writes ${sandbox.allowWrite.join(', ')}`);
  if (sandbox.allowHosts.length > 0) parts.push(`reaches ${sandbox.allowHosts.join(', ')}`);
  if (sandbox.denyRead.length > 0) parts.push(`hides ${sandbox.denyRead.join(', ')}`);
  return visibleLine(parts.join('; '));
}

/**
 * A URL as `mcp get` shows it: as written, except that its userinfo and each query value written
 * out in mcp.json itself are `***` (a credential typed into the file is not printed either; one
 * that is only `${VAR}` references shows as those). Text, not `new URL`: a URL with `${VAR}` in it
 * may not parse.
 */
export function maskedUrl(url: string): string {
  const parts = splitUrlText(url);
  const mask = (text: string) => (ONLY_REFERENCES.test(text) ? text : '***');
  const params = (text: string) =>
    text
      .split('&')
      .map((pair) => {
        const at = pair.indexOf('=');
        return pair === '' ? pair : at < 0 ? mask(pair) : `${pair.slice(0, at)}=${mask(pair.slice(at + 1))}`;
      })
      .join('&');
  return joinUrlText({
    ...parts,
    ...(parts.userinfo !== undefined && { userinfo: mask(parts.userinfo) }),
    ...(parts.query !== undefined && { query: params(parts.query) }),
    ...(parts.fragment !== undefined && { fragment: '***' }),
  });
}

/** `${A}`, `${A}:${B}`: names of variables and separators, no value written out. */
const ONLY_REFERENCES = /^(?:\$\{[A-Za-z_][A-Za-z0-9_]*\}|[:.@_-])+$/;

export function describeDefinition(definition: McpServerDefinition): string[] {
  const lines = [
    `  source: ${visibleLine(definition.file)} (${definition.source})`,
    `  transport: ${definition.transport}`,
  ];
  if (definition.transport === 'stdio') {
    // As the file writes it: a `${VAR}` from the environment (a token, say) is not printed.
    const { command, args } = definition.written ?? definition;
    lines.push(`  command: ${visibleLine([command, ...args].join(' '))}`);
    lines.push(`  cwd: ${visibleLine(definition.cwd)}`);
    const keys = Object.keys(definition.env);
    if (keys.length > 0) lines.push(`  env: ${visibleLine(keys.join(', '))} (values not shown)`);
    if (definition.sandbox) lines.push(`  sandbox: ${sandboxLine(definition.sandbox)}`);
  } else if (definition.transport === 'sdk') {
    lines.push('  in this process (query() options)');
  } else {
    lines.push(`  url: ${visibleLine(maskedUrl(definition.written?.url ?? definition.url))}`);
    const keys = Object.keys(definition.headers);
    if (keys.length > 0) lines.push(`  headers: ${visibleLine(keys.join(', '))} (values not shown)`);
  }
  lines.push(`  timeout: ${definition.timeoutMs} ms per request, start-up ${definition.startupTimeoutMs} ms`);
  if (definition.roots === false) lines.push('  roots: not declared ("roots": false)');
  if (definition.disabled) lines.push('  disabled: true');
  return lines;
}
