/**
 * The turn controller both faces use: what the person enters becomes a command (run now), a turn
 * (started, or queued behind the running one), and every outcome is one union — completed,
 * stopped at the round cap, cut by the provider (the text that came, and why), failed (with the
 * wording every face shows), cancelled, or not sent because no model is configured. Cancelling stops the running turn or command.
 */
import type { TurnResult } from '../agent/agent.js';
import type { AgentEvent } from '../agent/events.js';
import { type ChoiceRequest, CommandTable, type OutputKind } from '../commands/types.js';
import { missingKeyMessage } from '../config/model-setup.js';
import type { UserImage } from '../providers/messages.js';
import { describeCut, type RoundStop } from '../providers/stop-reason.js';
import { errorMessage, isAbortError } from '../util/errors.js';
import type { App } from './create-app.js';
import { describeTurnError } from './errors.js';

export type TurnOutcome =
  | { kind: 'completed'; result: TurnResult }
  | { kind: 'max_rounds'; result: TurnResult }
  /** The answer is incomplete: `result.stop` says why (see providers/stop-reason.ts). */
  | { kind: 'cut'; result: TurnResult & { stop: RoundStop } }
  | { kind: 'failed'; message: string }
  | { kind: 'cancelled' }
  | { kind: 'not_configured'; message: string };

/** What the controller tells its face. */
export interface TurnFace {
  /** Command output and controller messages (`/undo waits for the running turn`). */
  print(text: string, kind: OutputKind): void;
  /** /exit: the face ends the run. */
  exit(): void;
  /** A command's progress line (`run` tells one command's line from the next one's). */
  progress?(run: number, text: string, final: boolean): void;
  /** A command asks the person to pick from a list (interactive faces only). */
  choose?(request: ChoiceRequest, signal: AbortSignal): Promise<number | undefined>;
  /** A command puts text into the input line. */
  setInput?(text: string): void;
  /** A command took the conversation back: the user messages it dropped (see CommandContext). */
  rewound?(dropped: readonly string[]): void;
  turnStarted?(input: string): void;
  event?(event: AgentEvent): void;
  turnEnded?(input: string, outcome: TurnOutcome): void;
  queueChanged?(queued: readonly string[]): void;
  /** The face's output is behind: the turn waits for this promise (see TurnOptions.pace). */
  pace?(): Promise<void> | undefined;
}

/** What a face may hand over with the input besides its text. */
export interface TurnExtras {
  /** Images the face received with the message (an editor's prompt): checked before sending. */
  images?: readonly UserImage[];
}

export type TurnApp = Pick<App, 'agent' | 'settings' | 'extensions'>;

export class TurnController {
  private running: AbortController | undefined;
  private readonly commandAborts = new Set<AbortController>();
  /** Messages waiting for the running turn; `byPerson`: typed by the person (TurnScope.byPerson). */
  private readonly queue: Array<{ text: string; byPerson: boolean }> = [];
  private closed = false;
  private commandRuns = 0;

  constructor(
    private readonly app: TurnApp,
    private readonly face: TurnFace,
  ) {}

  get busy(): boolean {
    return this.running !== undefined;
  }

  get queued(): readonly string[] {
    return this.queue.map((item) => item.text);
  }

  get commands(): CommandTable {
    return this.app.extensions.commands;
  }

  /**
   * Enter: a command runs now; a message starts a turn, or waits behind the running one.
   * Resolves when what was started has finished (a queued message: at once).
   */
  async submit(input: string): Promise<void> {
    if (this.closed || input.trim() === '') return;
    if (CommandTable.isCommand(input)) {
      await this.runCommand(input.trim());
    } else if (this.running) {
      this.enqueue(input, true);
    } else {
      await this.runTurn(input);
    }
  }

  /**
   * Runs one command. `waitReady`: a non-interactive face waits for the extensions first when the
   * command needs them (or is not known yet: a server's prompt command). False if it failed.
   */
  async runCommand(input: string, options: { waitReady?: boolean } = {}): Promise<boolean> {
    const commands = this.commands;
    const known = commands.lookup(input);
    if (this.running && known?.idleOnly) {
      this.face.print(
        `${input.split(/\s+/)[0]} waits for the running turn: try again when it ends (Esc cancels it)`,
        'error',
      );
      return false;
    }
    const abort = new AbortController();
    const run = ++this.commandRuns;
    this.commandAborts.add(abort);
    let failed = false;
    const face = this.face;
    try {
      // A command not known yet may be a slow server's prompt: that waits for every server.
      if (options.waitReady && !known) await this.app.extensions.settled(abort.signal);
      else if (options.waitReady && known?.needsReady) await this.app.extensions.ready(abort.signal);
      await commands.dispatch(input, {
        commands,
        signal: abort.signal,
        print: (text, kind) => {
          if (kind === 'error') failed = true;
          this.face.print(text, kind ?? 'system');
        },
        exit: () => this.face.exit(),
        progress: (text, final) => this.face.progress?.(run, text, final),
        ...(face.choose ? { choose: (request: ChoiceRequest) => face.choose!(request, abort.signal) } : {}),
        ...(face.setInput ? { setInput: (text: string) => face.setInput!(text) } : {}),
        ...(face.rewound ? { rewound: (dropped: readonly string[]) => face.rewound!(dropped) } : {}),
        // A prompt command's text is the person's next message.
        submit: async (text, submitted) => {
          const byPerson = submitted?.typed === true;
          if (this.running) {
            this.enqueue(text, byPerson);
            return;
          }
          const outcome = await this.runTurn(text, byPerson);
          if (!answered(outcome)) failed = true;
        },
      });
    } catch (error) {
      failed = true;
      this.face.print(isAbortError(error) ? 'cancelled' : `error: ${errorMessage(error)}`, 'error');
    } finally {
      this.commandAborts.delete(abort);
    }
    return !failed;
  }

  /**
   * Runs one turn now (the caller made sure none is running), then the next queued message.
   * `byPerson`: the person typed `input` (a face's input line, `-p`, stdin); a command's text is not.
   */
  async runTurn(input: string, byPerson = true, extra: TurnExtras = {}): Promise<TurnOutcome> {
    const outcome = await this.turn(input, byPerson, extra);
    const next = this.queue.shift();
    if (next !== undefined) {
      this.face.queueChanged?.(this.queued);
      if (!this.closed) void this.runTurn(next.text, next.byPerson);
    }
    return outcome;
  }

  private enqueue(text: string, byPerson: boolean): void {
    this.queue.push({ text, byPerson });
    this.face.queueChanged?.(this.queued);
  }

  /** Esc / Ctrl+C / a signal: stops the running turn and any running command. */
  cancel(): void {
    this.running?.abort();
    for (const abort of this.commandAborts) abort.abort();
  }

  /** The face is going away: nothing queued starts, what runs is cancelled. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.cancel();
  }

  private async turn(input: string, byPerson: boolean, extra: TurnExtras = {}): Promise<TurnOutcome> {
    this.face.turnStarted?.(input);
    if (!this.app.settings.apiKey) {
      // Nothing would reach the model; say why instead of failing after the MCP wait.
      const outcome: TurnOutcome = {
        kind: 'not_configured',
        message: missingKeyMessage(this.app.settings.keyVariable),
      };
      this.face.turnEnded?.(input, outcome);
      return outcome;
    }
    this.app.extensions.start();
    const abort = new AbortController();
    this.running = abort;
    let outcome: TurnOutcome;
    try {
      const result = await this.app.agent.runTurn(input, {
        signal: abort.signal,
        byPerson,
        onEvent: (event) => this.face.event?.(event),
        ...(this.face.pace ? { pace: () => this.face.pace?.() } : {}),
        ...(extra.images?.length ? { images: extra.images } : {}),
      });
      outcome = outcomeOf(result);
    } catch (error) {
      outcome = isAbortError(error)
        ? { kind: 'cancelled' }
        : { kind: 'failed', message: describeTurnError(error) };
    } finally {
      this.running = undefined;
    }
    this.face.turnEnded?.(input, outcome);
    return outcome;
  }
}

/** A turn that ended in an answer (whole, at the round cap, or cut): it has a result to show. */
export function answered(
  outcome: TurnOutcome,
): outcome is Extract<TurnOutcome, { kind: 'completed' | 'max_rounds' | 'cut' }> {
  return outcome.kind === 'completed' || outcome.kind === 'max_rounds' || outcome.kind === 'cut';
}

/** The line every face shows for a cut answer (print mode's stderr, the TUI, stream-json, ACP). */
export function cutLine(outcome: Extract<TurnOutcome, { kind: 'cut' }>): string {
  return describeCut(outcome.result.stop, outcome.result.droppedCalls ?? 0);
}

function outcomeOf(result: TurnResult): TurnOutcome {
  if (result.status === 'cut' && result.stop)
    return { kind: 'cut', result: { ...result, stop: result.stop } };
  return { kind: result.status === 'max_rounds' ? 'max_rounds' : 'completed', result };
}
