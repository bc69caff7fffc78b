/**
 * Print mode with `--output-format stream-json`: stdout carries only JSON lines in Claude Code's
 * shapes — `system`/`init` first, the turn's messages as they happen (`stream_event`s too with
 * `--include-partial-messages`), a `result` line per turn — for scripts and CI runners.
 * With `--input-format stream-json` the turns come from stdin, one after another in one process,
 * until stdin closes (the library, src/library/, runs the same loop over its messages and sink),
 * and a tool that needs a question or a server's form is asked in-band (control_request); without
 * it there is the one prompt, and such a tool is refused (the form declined) as print mode does.
 * Turns wait while the reader is behind (MessageSink.pace): output never piles up, and the session
 * file is written apart.
 */
import { randomUUID } from 'node:crypto';
import type { App } from '../app/create-app.js';
import { answered, cutLine, TurnController, type TurnOutcome } from '../app/turn-controller.js';
import { CommandTable } from '../commands/types.js';
import { errorMessage } from '../util/errors.js';
import type { ControlChannel } from './control.js';
import { inputLines, MAX_INPUT_LINE, parseInputLine } from './input.js';
import { initLine, type MessageSink, StreamJsonEvents } from './output.js';
import { commandResult, EXIT_CUT, resultObject, TurnTally } from './result.js';

/**
 * Where input lines come from: stdin's bytes, or the library's user messages (as JSON lines), and
 * the channel their control responses answer (the CLI's; the library has none).
 */
export type InputSource =
  | { stream: NodeJS.ReadableStream; control?: ControlChannel }
  /** `label` names the input in error messages (`prompt message 2: …`; stdin's are `stdin line 2: …`). */
  | { lines: AsyncIterable<string>; control?: ControlChannel; label: string };

export interface StreamJsonRun {
  lines: MessageSink;
  /** `-p "…"`: the first (without stream input, the only) turn. */
  prompt?: string;
  /** `--input-format stream-json`: stdin and its control channel; or the library's messages. */
  input?: InputSource;
  /** `--include-partial-messages`: each reply's stream events as well as the whole message. */
  partial?: boolean;
  /** Start-up notices, written right after the init line (the CLI prints its own on stderr). */
  notices?: readonly string[];
  /** Handed the way to cancel the running turn (the library's `interrupt()`); the run goes on. */
  onInterruptible?: (cancel: () => void) => void;
}

/** Runs the turns and returns the exit code: 1 when a turn or command failed, else EXIT_CUT when an answer was cut. */
export async function runStreamJson(app: App, run: StreamJsonRun, signal: AbortSignal): Promise<number> {
  const { lines } = run;
  const sessionId = () => app.sessions.currentId;
  const system = (subtype: string, fields: Record<string, unknown>) =>
    lines.write({ type: 'system', subtype, ...fields, session_id: sessionId(), uuid: randomUUID() });
  let failed = false;
  let cut = false;
  let exit = false;
  let turns = 0;
  let tally = new TurnTally();
  const partial = { partial: run.partial === true };
  const backgroundCalls = new Set<string>();
  let events = new StreamJsonEvents(app, lines, partial, backgroundCalls);
  const stopNotices = app.extensions.onNotice((message) => system('notice', { message }));
  // Its end read or stopped: the background shell's run_shell call is complete (until the run ends).
  const stopShells = app.backgroundShells.onSettle(({ callId, info }) => {
    if (backgroundCalls.delete(callId))
      system('tool_status', {
        tool_use_id: callId,
        tool_name: 'run_shell',
        status: 'completed',
        shell_id: info.id,
      });
  });
  const controller = new TurnController(app, {
    print: (text, kind) => system('command_output', { kind, text }),
    exit: () => {
      exit = true;
    },
    turnStarted: () => {
      turns++;
      tally = new TurnTally();
      events = new StreamJsonEvents(app, lines, partial, backgroundCalls);
    },
    event: (event) => {
      tally.apply(event);
      events.event(event);
    },
    turnEnded: (_input, outcome: TurnOutcome) => {
      if (!answered(outcome)) failed = true;
      if (outcome.kind === 'cut') {
        cut = true;
        system('notice', { message: cutLine(outcome) });
      }
      lines.write(resultObject(app, outcome, tally));
    },
    pace: () => lines.pace(),
  });
  const cancel = () => controller.cancel();
  run.onInterruptible?.(cancel);
  signal.addEventListener('abort', cancel, { once: true });

  const one = async (text: string) => {
    if (!CommandTable.isCommand(text)) {
      await controller.runTurn(text);
      return;
    }
    const started = Date.now();
    const before = turns;
    const ok = await controller.runCommand(text.trim(), { waitReady: true });
    if (!ok) failed = true;
    // A command that ran no turn (a prompt command's turn has its own result) still gets one.
    if (turns === before) lines.write(commandResult(app, ok, Date.now() - started));
  };

  try {
    // Within the start-up grace (mcp/start-grace.ts), as the first request: init lists the tools
    // of the servers up by then, and those still starting as `pending` (Claude Code's word).
    await app.extensions.ready(signal);
    lines.write(initLine(app));
    for (const message of run.notices ?? []) system('notice', { message });
    if (run.prompt !== undefined && run.prompt.trim() !== '') await one(run.prompt);
    if (run.input) await turnsFromInput(run.input, one, system, () => exit || signal.aborted);
    await raceSignal(lines.flushed(), signal);
    return failed ? 1 : cut ? EXIT_CUT : 0;
  } finally {
    signal.removeEventListener('abort', cancel);
    stopNotices();
    stopShells();
  }
}

/** Reads stdin while turns run (answers arrive mid-turn); runs the queued messages in order. */
async function turnsFromInput(
  input: InputSource,
  one: (text: string) => Promise<void>,
  system: (subtype: string, fields: Record<string, unknown>) => void,
  stop: () => boolean,
): Promise<void> {
  const queue: string[] = [];
  let closed = false;
  let wake: (() => void) | undefined;
  let lineNo = 0;
  const label = 'stream' in input ? 'stdin line' : input.label;
  const error = (message: string) => system('error', { message: `${label} ${lineNo}: ${message}` });
  const tooLong = (bytes: number) => {
    lineNo++;
    error(`longer than ${MAX_INPUT_LINE} bytes (${bytes} read): skipped`);
  };
  const reading = (async () => {
    const source = 'stream' in input ? inputLines(input.stream, tooLong) : input.lines;
    for await (const line of source) {
      lineNo++;
      const parsed = parseInputLine(line);
      if (parsed === undefined) continue;
      if (parsed.kind === 'invalid') error(parsed.message);
      else if (parsed.kind === 'control_response') {
        const taken = input.control?.answer(parsed.requestId, parsed.reply) ?? { kind: 'unknown' };
        if (taken.kind === 'unknown')
          error(`no control_request ${JSON.stringify(parsed.requestId)} is waiting`);
        else if (taken.kind === 'invalid') error(taken.message);
      } else {
        queue.push(parsed.text);
        wake?.();
      }
    }
  })()
    .catch((failure: unknown) =>
      system('error', { message: `${'stream' in input ? 'stdin' : 'prompt'}: ${errorMessage(failure)}` }),
    )
    .finally(() => {
      closed = true;
      input.control?.close();
      wake?.();
    });

  while (!stop()) {
    const next = queue.shift();
    if (next !== undefined) {
      await one(next);
      continue;
    }
    if (closed) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = undefined;
  }
  if (closed) await reading;
}

function raceSignal(work: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    signal.addEventListener('abort', () => resolve(), { once: true });
    void work.then(resolve, resolve);
  });
}
