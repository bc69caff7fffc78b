/**
 * Print mode (`geekagent -p`): one user turn (or one slash command), no UI, through the same turn
 * controller as the TUI. Text format prints the answer on stdout and progress lines on stderr;
 * JSON format prints one object. An `ask` that no rule settles is refused, since nobody is there
 * to answer. Text output is for a terminal: every line of it goes through `visible` (an answer's
 * `ESC]52` cannot write the clipboard); JSON is escaped by JSON.stringify and keeps the exact
 * text, for scripts that want the raw bytes.
 */

import type { TurnResult } from '../agent/agent.js';
import { type AgentEvent, describeCompaction } from '../agent/events.js';
import type { App } from '../app/create-app.js';
import { TurnController, type TurnOutcome } from '../app/turn-controller.js';
import { CommandTable } from '../commands/types.js';
import type { ApprovalAnswer, Approver, PolicyReview } from '../permissions/types.js';
import { formatToolLine } from '../tools/format.js';
import { outputToText } from '../tools/types.js';
import { visible } from '../util/terminal-text.js';
import { progressLine } from './progress-line.js';

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
 * Runs `input` — a turn, or a slash command (`-p /undo`, whose prompt commands run their text as
 * the turn) — and returns the exit code. `signal` is the run's: a SIGTERM cancels the turn.
 */
export async function runPrint(
  app: App,
  input: string,
  format: OutputFormat,
  io: PrintIO,
  signal: AbortSignal,
): Promise<number> {
  let code = 0;
  // The turn's reasoning, for the JSON output only (text output shows the answer alone).
  const reasoning = new ReasoningLog();
  const stopNotices = app.extensions.onNotice((message) => io.stderr.write(`${visible(message)}\n`));
  const controller = new TurnController(app, {
    print: (text, kind) => (kind === 'error' ? io.stderr : io.stdout).write(`${visible(text)}\n`),
    exit: () => undefined,
    progress: progressLine(io.stderr),
    event: (event) => {
      reasoning.apply(event);
      progress(event, io, format);
    },
    turnEnded: (_input, outcome) => {
      code = report(app, outcome, format, io, reasoning.text);
    },
  });
  const cancel = () => controller.cancel();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    if (CommandTable.isCommand(input)) {
      const ok = await controller.runCommand(input.trim(), { waitReady: true });
      return ok ? code : 1;
    }
    await controller.runTurn(input);
    return code;
  } finally {
    signal.removeEventListener('abort', cancel);
    stopNotices();
  }
}

function report(
  app: App,
  outcome: TurnOutcome,
  format: OutputFormat,
  io: PrintIO,
  reasoning: string,
): number {
  switch (outcome.kind) {
    case 'not_configured':
    case 'failed':
      io.stderr.write(`${visible(outcome.message)}\n`);
      return 1;
    case 'cancelled':
      io.stderr.write('cancelled\n');
      return 1;
    case 'max_rounds':
    case 'completed': {
      const { result } = outcome;
      if (outcome.kind === 'max_rounds') io.stderr.write(`${visible(result.text)}\n`);
      if (format === 'json') {
        io.stdout.write(`${JSON.stringify(toJson(result, app, reasoning))}\n`);
      } else {
        const text = visible(result.text);
        io.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
      }
      return 0;
    }
  }
}

/** Collects the streamed reasoning of every round of the turn, rounds apart by a blank line. */
class ReasoningLog {
  text = '';
  private roundHas = false;

  apply(event: AgentEvent): void {
    if (event.type === 'round_start') this.roundHas = false;
    if (event.type !== 'reasoning') return;
    if (!this.roundHas && this.text !== '') this.text += '\n\n';
    this.roundHas = true;
    this.text += event.delta;
  }
}

function progress(event: AgentEvent, io: PrintIO, format: OutputFormat): void {
  if (format === 'json') return;
  if (event.type === 'waiting' || event.type === 'notice') io.stderr.write(`${visible(event.message)}\n`);
  if (event.type === 'compacted') io.stderr.write(`${describeCompaction(event.report)}\n`);
  // formatToolLine escapes the name and result itself.
  if (event.type === 'tool_end')
    io.stderr.write(`${formatToolLine(event.outcome.name, event.outcome.output)}\n`);
}

function toJson(result: TurnResult, app: App, reasoning: string): Record<string, unknown> {
  return {
    result: result.text,
    reasoning,
    tool_calls: result.toolCalls.map((call) => ({
      name: call.name,
      arguments: parsedOrRaw(call.arguments),
      decision: call.decision,
      result: outputToText(call.output),
      is_error: call.isError,
    })),
    // Always there for scripts: 0 when the provider reported no cache reads.
    usage: { ...result.usage, cached_tokens: result.usage.cached_tokens ?? 0 },
    session_id: app.sessions.currentId,
    ...app.extensions.reportFields(),
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
