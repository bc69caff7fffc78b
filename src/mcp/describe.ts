/**
 * Text and JSON views of server statuses, shared by `geekagent mcp list/get` and the TUI's `/mcp`:
 * `demo (2 tools)` with the tool names beneath, or `× name: error` — the seed's format.
 */
import type { McpServerDefinition } from './config.js';
import type { ServerState, ServerStatus } from './status.js';

export function stateLabel(state: ServerState): string {
  switch (state.state) {
    case 'connected':
      return `${state.tools.length} tool${state.tools.length === 1 ? '' : 's'}`;
    case 'connecting':
      return state.attempt > 1 ? `reconnecting (attempt ${state.attempt})` : 'connecting';
    case 'failed':
      return state.retry
        ? `${state.error}; restarting in ${Math.ceil(state.retry.inMs / 1000)} s (attempt ${state.retry.attempt} of ${state.retry.maxAttempts})`
        : state.error;
    case 'needs_auth':
      return `needs login: ${state.error}`;
    case 'disabled':
      return 'disabled';
  }
}

/** One block per server: `demo (2 tools)` + indented tool names, or `× name: error`. */
export function describeServer(status: ServerStatus, options: { descriptions?: boolean } = {}): string[] {
  const s = status.state;
  if (s.state === 'failed' || s.state === 'needs_auth')
    return [`× ${status.name}: ${stateLabel(s)}`, ...warningLines(status)];
  if (s.state !== 'connected') return [`${status.name} (${stateLabel(s)})`];
  const tools = s.tools.map((tool) =>
    options.descriptions && tool.description
      ? `  ${tool.modelName} — ${firstLine(tool.description)}`
      : `  ${tool.modelName}`,
  );
  return [`${status.name} (${stateLabel(s)})`, ...tools, ...warningLines(status)];
}

function warningLines(status: ServerStatus): string[] {
  return status.warnings.map((warning) => `  ! ${warning}`);
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
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
      tools:
        s.state === 'connected'
          ? s.tools.map((tool) => ({
              name: tool.modelName,
              originalName: tool.originalName,
              description: tool.description,
            }))
          : [],
    };
  });
}

export function describeDefinition(definition: McpServerDefinition): string[] {
  const lines = [
    `  source: ${definition.file} (${definition.source})`,
    `  transport: ${definition.transport}`,
  ];
  if (definition.transport === 'stdio') {
    lines.push(`  command: ${[definition.command, ...definition.args].join(' ')}`);
    lines.push(`  cwd: ${definition.cwd}`);
    const keys = Object.keys(definition.env);
    if (keys.length > 0) lines.push(`  env: ${keys.join(', ')} (values not shown)`);
  } else {
    lines.push(`  url: ${definition.url}`);
    const keys = Object.keys(definition.headers);
    if (keys.length > 0) lines.push(`  headers: ${keys.join(', ')} (values not shown)`);
  }
  lines.push(`  timeout: ${definition.timeoutMs} ms per request, start-up ${definition.startupTimeoutMs} ms`);
  if (definition.disabled) lines.push('  disabled: true');
  return lines;
}
