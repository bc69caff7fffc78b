/**
 * Status of one MCP server as a discriminated union that carries its data — the single source of
 * truth the panel, `/mcp` and `geekagent mcp list` read.
 */
import type { ToolDefinition } from '../permissions/pins.js';
import type { JsonSchema } from '../tools/types.js';
import type { ConfigSource } from './config.js';

export interface McpToolInfo {
  /** The name the model sees (`mcp_<server>_<tool>`, ≤ 64 chars). */
  modelName: string;
  /** The server's own name, used on the wire. */
  originalName: string;
  /** The server's own description (the registry adds the `[MCP:<server>]` prefix). */
  description: string;
  inputSchema: JsonSchema;
  /** The tool as the server listed it (raw schema, title, annotations): what pins record. */
  definition: ToolDefinition;
}

export interface RetryInfo {
  attempt: number;
  maxAttempts: number;
  inMs: number;
}

export type ServerState =
  | { state: 'disabled' }
  /** Not started in this run: its tools come from the cache; the first use starts it. */
  | { state: 'idle'; tools: McpToolInfo[] }
  | { state: 'connecting'; attempt: number }
  | { state: 'connected'; tools: McpToolInfo[] }
  | { state: 'failed'; error: string; during: 'startup' | 'runtime'; retry?: RetryInfo }
  | { state: 'needs_auth'; error: string };

export interface ServerStatus {
  name: string;
  source: ConfigSource;
  /** `sdk`: an in-process server the library was given. */
  transport: 'stdio' | 'http' | 'sse' | 'sdk';
  state: ServerState;
  /** Problems worth telling the person about: skipped tools, renamed collisions. */
  warnings: string[];
  /** A stdio server that runs (only) inside the kernel sandbox. */
  sandboxed?: true;
  /** The group it joined the manager with (`skill dice`); absent for a configured server. */
  group?: string;
}

/** Whether the server has reached an outcome of its first connection attempt. */
export function isSettled(state: ServerState): boolean {
  return state.state !== 'connecting';
}

/** `demo(2)`, `demo(2, idle)`, `name(failed to start)`, `name(connecting)` — the panel's MCP line, one server. */
export function shortStatus(status: ServerStatus): string {
  const s = status.state;
  switch (s.state) {
    case 'connected':
      return `${status.name}(${s.tools.length})`;
    case 'idle':
      return `${status.name}(${s.tools.length}, idle)`;
    case 'connecting':
      return s.attempt > 1 ? `${status.name}(reconnecting)` : `${status.name}(connecting)`;
    case 'failed':
      if (s.retry) return `${status.name}(restarting)`;
      return s.during === 'startup' ? `${status.name}(failed to start)` : `${status.name}(failed)`;
    case 'needs_auth':
      return `${status.name}(needs login)`;
    case 'disabled':
      return `${status.name}(disabled)`;
  }
}

export function panelMcpLine(statuses: readonly ServerStatus[]): string {
  return statuses.length === 0 ? 'none' : statuses.map(shortStatus).join(', ');
}
