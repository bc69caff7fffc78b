/**
 * Print mode (`geekagent -p`): one user turn, no UI. Text format prints the answer on stdout and
 * progress lines on stderr; JSON format prints one object. An `ask` that no rule settles is
 * refused, since nobody is there to answer. Text output is for a terminal: every line of it goes
 * through `visible` (an answer's `ESC]52` cannot write the clipboard); JSON is escaped by
 * JSON.stringify and keeps the exact text, for scripts that want the raw bytes.
 */

import type { TurnResult } from '../agent/agent.js';
import type { AgentEvent } from '../agent/events.js';
import type { App } from '../app/create-app.js';
import { createCommandTable } from '../commands/builtin.js';
import { syncPromptCommands } from '../commands/mcp-prompts.js';
import { MISSING_KEY_MESSAGE } from '../config/model-settings.js';
import type { ApprovalAnswer, Approver, PolicyReview } from '../permissions/types.js';
import { ModelNotConfiguredError, ProviderError } from '../providers/types.js';
import { formatToolLine } from '../tools/format.js';
import { outputToText } from '../tools/types.js';
import { errorMessage, isAbortError } from '../util/errors.js';
import { visible } from '../util/terminal-text.js';

export type OutputFormat = 'text' | 'json';

export interface PrintIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export class PrintModeApprover implements Approver {
  async ask(): Promise<ApprovalAnswer> {
    return 'no';
  }

  refusalMessage(toolName: string, review?: PolicyReview, protectedPaths?: string[]): string {
    if (protectedPaths && protectedPaths.length > 0) {
      const flags = protectedPaths.map((shown) => `--allow-protected ${shown}`).join(' ');
      return `protected path: ${protectedPaths.join(', ')} — pass ${flags} to allow it`;
    }
    return review?.refusal ?? `needs approval: run interactively or pass --allow ${toolName}`;
  }
}

/**
 * `geekagent -p /undo` and friends: the same command table as the TUI, output on stdout. A
 * prompt command (`/mcp__server__prompt`) runs its text as the turn.
 */
export async function runPrintCommand(
  app: App,
  input: string,
  io: PrintIO,
  format: OutputFormat,
  signal: AbortSignal,
): Promise<number> {
  const commands = createCommandTable();
  let code = 0;
  if (commands.lookup(input)?.needsServers || input.trim().startsWith('/mcp__')) {
    app.mcp.start();
    await app.mcp.whenSettled();
    syncPromptCommands(commands, app.mcp, new Set());
  }
  await commands.dispatch(input, {
    app,
    commands,
    exit: () => undefined,
    print: (text, kind) => {
      if (kind === 'error') code = 1;
      (kind === 'error' ? io.stderr : io.stdout).write(`${visible(text)}\n`);
    },
    submit: async (text) => {
      code = await runPrintTurn(app, text, format, io, signal);
    },
  });
  return code;
}

export async function runPrintTurn(
  app: App,
  prompt: string,
  format: OutputFormat,
  io: PrintIO,
  signal: AbortSignal,
): Promise<number> {
  if (!app.settings.apiKey) {
    io.stderr.write(`${MISSING_KEY_MESSAGE}\n`);
    return 1;
  }
  app.mcp.start();
  let result: TurnResult;
  try {
    result = await app.agent.runTurn(prompt, { signal, onEvent: (event) => progress(event, io, format) });
  } catch (error) {
    io.stderr.write(`${visible(describeTurnError(error))}\n`);
    return 1;
  }
  if (result.status === 'max_rounds') io.stderr.write(`${visible(result.text)}\n`);
  if (format === 'json') {
    io.stdout.write(`${JSON.stringify(toJson(result))}\n`);
  } else {
    const text = visible(result.text);
    io.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
  }
  return 0;
}

function progress(event: AgentEvent, io: PrintIO, format: OutputFormat): void {
  if (format === 'json') return;
  if (event.type === 'waiting' || event.type === 'notice') io.stderr.write(`${visible(event.message)}\n`);
  // formatToolLine escapes the name and result itself.
  if (event.type === 'tool_end')
    io.stderr.write(`${formatToolLine(event.outcome.name, event.outcome.output)}\n`);
}

export function describeTurnError(error: unknown): string {
  if (isAbortError(error)) return 'cancelled';
  if (error instanceof ProviderError || error instanceof ModelNotConfiguredError) return error.message;
  return `error: ${errorMessage(error)}`;
}

function toJson(result: TurnResult): Record<string, unknown> {
  return {
    result: result.text,
    tool_calls: result.toolCalls.map((call) => ({
      name: call.name,
      arguments: parsedOrRaw(call.arguments),
      decision: call.decision,
      result: outputToText(call.output),
      is_error: call.isError,
    })),
    usage: result.usage,
  };
}

/** Arguments as the object the model meant, or the raw text when it sent broken JSON. */
function parsedOrRaw(raw: string): unknown {
  try {
    return raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    return raw;
  }
}
