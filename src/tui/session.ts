/**
 * The TUI session: turns keypress-level intents (submit, answer, cancel, exit) into calls on the
 * app, and the app's events into a snapshot the components render. Holds view state only —
 * transcript, queue, running tools; the agent, commands and permissions do the real work.
 */
import type { App } from '../app/create-app.js';
import { describeTurnError } from '../cli/print-mode.js';
import { syncPromptCommands } from '../commands/mcp-prompts.js';
import { CommandTable } from '../commands/types.js';
import { MISSING_KEY_MESSAGE } from '../config/model-settings.js';
import { panelMcpLine } from '../mcp/status.js';
import type { ApprovalAnswer, ApprovalRequest } from '../permissions/types.js';
import { panelMcpWithTrust } from '../trust/describe.js';
import { errorMessage } from '../util/errors.js';
import type { TuiApprover } from './approver.js';
import type { TuiElicitor } from './elicitor.js';
import type { InputHistory } from './history.js';
import { TranscriptStore } from './transcript-store.js';
import { TurnView } from './turn-view.js';
import type { LineKind, SessionSnapshot } from './types.js';

export const GREETING = 'GeekAgent — MCP-first terminal agent';
export const GREETING_HINT =
  'Type /help for commands. Servers in .geekagent/mcp.json connect automatically; /mcp shows them.';

export interface SessionDeps {
  app: App;
  commands: CommandTable;
  approver: TuiApprover;
  /** Answers servers' elicitation requests with a form; absent in tests that need none. */
  elicitor?: TuiElicitor;
  history: InputHistory;
  now?: () => number;
}

export class TuiSession {
  private readonly transcript = new TranscriptStore();
  private readonly listeners = new Set<() => void>();
  private readonly unsubscribers: Array<() => void> = [];
  private readonly queued: string[] = [];
  private readonly view: TurnView;
  private turn: AbortController | undefined;
  private turnStartedAt: number | undefined;
  private exitRequested = false;
  private resolveExit: () => void = () => undefined;
  private current: SessionSnapshot;
  private dirty = false;
  private notifyScheduled: NodeJS.Immediate | undefined;
  /** Prompt commands (`/mcp__server__prompt`) currently in the command table. */
  private readonly promptCommands = new Set<string>();
  /** Resolves once the person asked to leave (/exit, Ctrl+D, Ctrl+C when idle). */
  readonly exited: Promise<void>;

  constructor(private readonly deps: SessionDeps) {
    this.exited = new Promise((resolve) => {
      this.resolveExit = resolve;
    });
    this.view = new TurnView(this.transcript, () => this.now());
    this.current = this.build();
  }

  /** Greets, follows MCP status and open questions, and starts the servers in the background. */
  start(): void {
    this.transcript.line('title', GREETING);
    this.transcript.line('system', GREETING_HINT);
    const { app, commands, elicitor } = this.deps;
    this.unsubscribers.push(
      app.mcp.onChange(() => {
        syncPromptCommands(commands, app.mcp, this.promptCommands);
        this.refresh();
      }),
    );
    this.unsubscribers.push(this.deps.approver.onChange(() => this.refresh()));
    if (elicitor) this.unsubscribers.push(elicitor.onChange(() => this.refresh()));
    this.refresh();
    this.deps.app.mcp.start();
  }

  dispose(): void {
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
    if (this.notifyScheduled) clearImmediate(this.notifyScheduled);
    this.turn?.abort();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The current view; rebuilt on demand, so it is never older than the last change. */
  snapshot = (): SessionSnapshot => {
    if (this.dirty) {
      this.dirty = false;
      this.current = this.build();
    }
    return this.current;
  };

  get history(): InputHistory {
    return this.deps.history;
  }

  /** Enter: a command runs now; a message starts a turn, or queues behind the running one. */
  submit(input: string): void {
    if (this.exitRequested || input.trim() === '') return;
    void this.deps.history.add(input);
    if (CommandTable.isCommand(input)) {
      void this.runCommand(input.trim());
    } else if (this.turn) {
      this.queued.push(input);
      this.refresh();
    } else {
      void this.runTurn(input);
    }
  }

  /** A keypress answer for the question that was on screen; ignored if that one is gone. */
  answer(answer: ApprovalAnswer, question: ApprovalRequest): void {
    if (this.deps.approver.current() === question) this.deps.approver.answer(answer);
  }

  /** Esc: an open form is cancelled (the turn goes on); else a question is answered no and the turn stops. */
  cancel(): void {
    if (!this.deps.approver.current() && this.deps.elicitor?.cancel()) return;
    if (this.deps.approver.current()) this.deps.approver.answer('no');
    this.turn?.abort();
  }

  /** Enter while a form is open. */
  formInput(text: string): void {
    this.deps.elicitor?.input(text);
  }

  /** A question answered outside a tool call (a sampling request), recorded like the others. */
  recordQuestion(request: ApprovalRequest, answer: ApprovalAnswer): void {
    this.transcript.question(request, answer);
    this.refresh();
  }

  /** Ctrl+C: cancels what is running, or leaves when nothing is. */
  interrupt(): void {
    if (this.turn || this.deps.approver.current()) this.cancel();
    else this.requestExit();
  }

  requestExit(): void {
    if (this.exitRequested) return;
    this.exitRequested = true;
    this.cancel();
    this.resolveExit();
  }

  /** A line from outside the conversation: warnings, stray console output. */
  notice(text: string, kind: LineKind = 'system'): void {
    this.transcript.line(kind, text);
    this.refresh();
  }

  private async runCommand(input: string): Promise<void> {
    const { app, commands } = this.deps;
    this.transcript.line('user', input);
    this.refresh();
    if (this.turn && commands.lookup(input)?.idleOnly) {
      this.notice(
        `${input.split(/\s+/)[0]} waits for the running turn: try again when it ends (Esc cancels it)`,
        'error',
      );
      return;
    }
    try {
      await commands.dispatch(input, {
        app,
        commands,
        print: (text, kind) => this.notice(text, kind === 'error' ? 'error' : 'system'),
        exit: () => this.requestExit(),
        // A prompt command's text is the person's next message.
        submit: async (text) => {
          if (this.turn) {
            this.queued.push(text);
            this.refresh();
          } else {
            await this.runTurn(text);
          }
        },
      });
    } catch (error) {
      this.notice(`error: ${errorMessage(error)}`, 'error');
    }
  }

  private async runTurn(input: string): Promise<void> {
    const { app } = this.deps;
    this.transcript.line('user', input);
    if (!app.settings.apiKey) {
      // Nothing would reach the model; say why instead of failing after the MCP wait.
      this.notice(MISSING_KEY_MESSAGE, 'error');
      return;
    }
    const turn = new AbortController();
    this.turn = turn;
    this.turnStartedAt = this.now();
    this.view.begin();
    this.refresh();
    let finalText: string | undefined;
    try {
      const result = await app.agent.runTurn(input, {
        signal: turn.signal,
        onEvent: (event) => {
          this.view.apply(event);
          this.refresh();
        },
      });
      if (result.status === 'max_rounds') this.transcript.line('system', result.text);
      else finalText = result.text;
    } catch (error) {
      const message = describeTurnError(error);
      this.transcript.line(message === 'cancelled' ? 'system' : 'error', message);
    } finally {
      this.view.finish(finalText);
      this.turn = undefined;
      this.turnStartedAt = undefined;
      this.refresh();
    }
    const next = this.queued.shift();
    if (next !== undefined && !this.exitRequested) void this.runTurn(next);
  }

  /**
   * Marks the view changed and tells listeners once per tick: a streamed reply brings hundreds of
   * text deltas in one burst, and each would otherwise cost a full render.
   */
  private refresh(): void {
    this.dirty = true;
    this.notifyScheduled ??= setImmediate(() => {
      this.notifyScheduled = undefined;
      for (const listener of this.listeners) listener();
    });
  }

  private build(): SessionSnapshot {
    const { app, approver } = this.deps;
    return {
      entries: this.transcript.entries,
      busy: this.turn !== undefined,
      turnStartedAt: this.turnStartedAt,
      queued: [...this.queued],
      tools: this.view.tools,
      question: approver.current(),
      form: this.deps.elicitor?.current(),
      panel: {
        model: app.settings.apiKey ? app.provider.model : undefined,
        root: app.permissions.root,
        instructions: app.projectInstructions !== undefined,
        mcp: panelMcpWithTrust(panelMcpLine(app.mcp.statuses()), app.trust),
        contextTokens: app.conversation.contextTokens,
        contextWindow: app.provider.contextWindow,
        turnTokens: this.view.turnTokens,
        totalTokens: app.conversation.totalUsage.total_tokens,
      },
    };
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }
}
