/**
 * How GeekAgent's turn reads in an editor: agent events become ACP `session/update`s (message and
 * thought chunks, tool calls with kind, title, locations and raw input, their updates with status,
 * content and diffs), the todo list a `plan`, the command table `available_commands_update`.
 * Pure mapping; the session sends what these return.
 */
import path from 'node:path';
import type {
  AvailableCommand,
  PlanEntry,
  SessionUpdate,
  ToolCallContent,
  ToolKind,
} from '@agentclientprotocol/sdk/unstable';
import type { CommandTable } from '../commands/types.js';
import type { Todo } from '../todos/extension.js';
import { outputToText, type ToolCallOutcome, type ToolOutput } from '../tools/types.js';

const KINDS: Record<string, ToolKind> = {
  read: 'read',
  ls: 'read',
  glob: 'search',
  search: 'search',
  tool_search: 'search',
  rag_search: 'search',
  memory_search: 'search',
  write: 'edit',
  patch: 'edit',
  run_shell: 'execute',
  fetch: 'fetch',
  todo_write: 'think',
};

export function toolKind(name: string): ToolKind {
  return KINDS[name] ?? 'other';
}

/** The arguments as the model meant them; broken JSON stays text. */
export function parseArguments(raw: string): Record<string, unknown> | string {
  try {
    const value: unknown = raw.trim() === '' ? {} : JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : raw;
  } catch {
    return raw;
  }
}

/** One line naming the call: `Read src/a.ts`, `` `npm test` ``, `mcp_demo_dice`. */
export function toolTitle(name: string, args: Record<string, unknown> | string): string {
  const get = (key: string) => (typeof args === 'object' && typeof args[key] === 'string' ? args[key] : '');
  const shown = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text).replace(/\s+/g, ' ');
  switch (name) {
    case 'read':
      return `Read ${shown(get('path'))}`;
    case 'ls':
      return `List ${shown(get('path') || '.')}`;
    case 'write':
      return `Write ${shown(get('path'))}`;
    case 'patch':
      return `Edit ${shown(get('path'))}`;
    case 'run_shell':
      return `\`${shown(get('command'))}\``;
    case 'fetch':
      return `Fetch ${shown(get('url'))}`;
    case 'glob':
      return `Find ${shown(get('pattern'))}`;
    case 'search':
      return `Search ${shown(get('pattern') || get('query'))}`;
    case 'todo_write':
      return 'Update the todo list';
    default:
      return name;
  }
}

/** The file a call touches, absolute (the editor follows along). */
export function toolLocations(
  args: Record<string, unknown> | string,
  root: string,
): Array<{ path: string }> | undefined {
  if (typeof args !== 'object' || typeof args.path !== 'string' || args.path === '') return undefined;
  return [{ path: path.resolve(root, args.path) }];
}

export function toolCallStart(
  callId: string,
  name: string,
  rawArguments: string,
  root: string,
): SessionUpdate {
  const args = parseArguments(rawArguments);
  const locations = toolLocations(args, root);
  return {
    sessionUpdate: 'tool_call',
    toolCallId: callId,
    title: toolTitle(name, args),
    kind: toolKind(name),
    status: 'pending',
    rawInput: args,
    ...(locations ? { locations } : {}),
  };
}

export function outputContent(output: ToolOutput): ToolCallContent[] {
  if (typeof output === 'string') return [{ type: 'content', content: { type: 'text', text: output } }];
  return output.map((part): ToolCallContent => {
    if (part.type === 'image')
      return { type: 'content', content: { type: 'image', data: part.data, mimeType: part.mimeType } };
    return { type: 'content', content: { type: 'text', text: outputToText([part]) } };
  });
}

/** A finished call; `diff`: the file change a successful write/patch made. */
export function toolCallEnd(
  callId: string,
  outcome: ToolCallOutcome,
  diff?: { path: string; oldText: string | null; newText: string },
): SessionUpdate {
  const content = outputContent(outcome.output);
  if (diff && !outcome.isError) content.unshift({ type: 'diff', ...diff });
  return {
    sessionUpdate: 'tool_call_update',
    toolCallId: callId,
    status: outcome.isError ? 'failed' : 'completed',
    content,
    rawOutput: outputToText(outcome.output),
  };
}

export function planUpdate(todos: readonly Todo[]): SessionUpdate {
  const entries: PlanEntry[] = todos.map((todo) => ({
    content: todo.content,
    status: todo.status,
    priority: 'medium',
  }));
  return { sessionUpdate: 'plan', entries };
}

/** The slash commands (built-in, MCP prompts, skills) without the ones that make no sense in an editor. */
export function commandsUpdate(commands: CommandTable): SessionUpdate {
  const available: AvailableCommand[] = commands
    .list()
    .filter((command) => !EDITOR_HIDDEN.has(command.name))
    .map((command) => {
      const hint = command.usage.replace(/^\/\S+\s*/, '');
      return {
        name: command.name,
        description: command.description,
        ...(hint ? { input: { hint } } : {}),
      };
    });
  return { sessionUpdate: 'available_commands_update', availableCommands: available };
}

/** The editor ends the session itself. */
const EDITOR_HIDDEN = new Set(['exit']);

export function textChunk(text: string): SessionUpdate {
  return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } };
}

export function thoughtChunk(text: string): SessionUpdate {
  return { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } };
}
