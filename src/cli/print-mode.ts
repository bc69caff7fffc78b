/**
 * Print mode (`geekagent -p`): one user turn (or one slash command), no UI, through the same turn
 * controller as the TUI. Text format prints the answer on stdout and progress lines on stderr;
 * JSON format prints one object. An `ask` that no rule settles is refused, since nobody is there
 * to answer. Text output is for a terminal: every line of it goes through `visible` (an answer's
 * `ESC]52` cannot write the clipboard); JSON is escaped by JSON.stringify and keeps the exact
 * text, for scripts that want the raw bytes.
 */

import { type AgentEvent, describeCompaction } from '../agent/events.js';
import type { App } from '../app/create-app.js';
import { cutLine, TurnController, type TurnOutcome } from '../app/turn-controller.js';
import { CommandTable } from '../commands/types.js';
import { modelSetupLines } from '../config/model-setup.js';
import { modelsFile } from '../config/named-models.js';
import type { ApprovalAnswer, Approver, PolicyReview } from '../permissions/types.js';
import { jsonLine } from '../stream-json/output.js';
import { EXIT_CUT, resultObject, TurnTally } from '../stream-json/result.js';
import { formatToolLine } from '../tools/format.js';
import { visible } from '../util/terminal-text.js';
import { progressLine } from './progress-line.js';

/** `stream-json` runs in stream-json.ts; print mode proper is text and json. */
export type OutputFormat = 'text' | 'json' | 'stream-json';

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
  format: 'text' | 'json',
  io: PrintIO,
  signal: AbortSignal,
): Promise<number> {
  let code = 0;
  // The turn's reasoning, rounds and duration, for the JSON output (text output shows the answer alone).
  const tally = new TurnTally();
  const stopNotices = app.extensions.onNotice((message) => io.stderr.write(`${visible(message)}\n`));
  const controller = new TurnController(app, {
    print: (text, kind) => (kind === 'error' ? io.stderr : io.stdout).write(`${visible(text)}\n`),
    exit: () => undefined,
    progress: progressLine(io.stderr),
    event: (event) => {
      tally.apply(event);
      progress(event, io, format);
    },
    turnEnded: (_input, outcome) => {
      code = report(app, outcome, format, io, tally);
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
  format: 'text' | 'json',
  io: PrintIO,
  tally: TurnTally,
): number {
  switch (outcome.kind) {
    case 'not_configured':
      // The first run without a model: the lines to copy, not only the variable's name.
      io.stderr.write(`${modelSetupLines(app.settings, modelsFile(app.userDir)).map(visible).join('\n')}\n`);
      return 1;
    case 'failed':
      io.stderr.write(`${visible(outcome.message)}\n`);
      return 1;
    case 'cancelled':
      io.stderr.write('cancelled\n');
      return 1;
    case 'max_rounds':
    case 'completed':
    case 'cut': {
      const { result } = outcome;
      if (outcome.kind === 'max_rounds') io.stderr.write(`${visible(result.text)}\n`);
      if (format === 'json') {
        io.stdout.write(jsonLine(resultObject(app, outcome, tally)));
      } else {
        const text = visible(result.text);
        io.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
      }
      if (outcome.kind !== 'cut') return 0;
      // The text that came is printed; the one line says it is not all (whatever the format).
      io.stderr.write(`geekagent: ${visible(cutLine(outcome))}\n`);
      return EXIT_CUT;
    }
  }
}

function progress(event: AgentEvent, io: PrintIO, format: 'text' | 'json'): void {
  if (format === 'json') return;
  if (event.type === 'waiting' || event.type === 'notice') io.stderr.write(`${visible(event.message)}\n`);
  if (event.type === 'compacted') io.stderr.write(`${describeCompaction(event.report)}\n`);
  // formatToolLine escapes the name and result itself.
  if (event.type === 'tool_end')
    io.stderr.write(`${formatToolLine(event.outcome.name, event.outcome.output)}\n`);
}
