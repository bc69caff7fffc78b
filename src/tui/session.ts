/**
 * The TUI session: turns keypress-level intents (submit, answer, cancel, exit) into calls on the
 * turn controller, and the controller's and extensions' events into a snapshot the components
 * render. Holds view state only — transcript, running tools, the open question; the controller,
 * the agent, commands and extensions do the real work. The folder-trust question a reload asks
 * (`/commands reload`, `/skills reload` finding a new or changed project file) is shown here the
 * way the start-up front shows the start's: same view, same keys (trust-keys.ts).
 */
import { cachedPercent } from '../agent/events.js';
import type { App } from '../app/create-app.js';
import { answered, cutLine, TurnController, type TurnOutcome } from '../app/turn-controller.js';
import { CommandTable } from '../commands/types.js';
import { MODE_DESCRIPTIONS } from '../permissions/approval-mode.js';
import type { ApprovalAnswer, ApprovalRequest } from '../permissions/types.js';
import { describeOpened } from '../sessions/extension.js';
import type { TrustQuestion } from '../trust/reload.js';
import type { TuiApprover } from './approver.js';
import { TuiChooser } from './chooser.js';
import type { TuiElicitor } from './elicitor.js';
import { FramePacer } from './frame-pacer.js';
import { GREETING, GREETING_HINT } from './front.js';
import type { InputHistory } from './history.js';
import { TranscriptStore } from './transcript-store.js';
import { TurnView } from './turn-view.js';
import type { LineKind, SessionSnapshot, TrustAnswer, TrustQuestionView } from './types.js';

/** Messages of a continued session shown again when it opens. */
const RECAP_MESSAGES = 6;

export interface SessionDeps {
  app: App;
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
  private readonly view: TurnView;
  /** Lists commands ask the person to pick from (`/rewind`). */
  private readonly chooser = new TuiChooser();
  /** A reload's trust question on screen, and who waits for its answer. */
  private trustAsk: { view: TrustQuestionView; resolve: (answer: TrustAnswer) => void } | undefined;
  /** Text a command put into the input line, with a new id each time. */
  private inputFill: { id: number; text: string } | undefined;
  private readonly controller: TurnController;
  private turnStartedAt: number | undefined;
  private exitRequested = false;
  private resolveExit: () => void = () => undefined;
  private current: SessionSnapshot;
  private dirty = false;
  /** When listeners hear of a change (frame-pacer.ts). */
  private readonly pacer = new FramePacer(() => {
    for (const listener of this.listeners) listener();
  });
  /** Resolves once the person asked to leave (/exit, Ctrl+D, Ctrl+C when idle). */
  readonly exited: Promise<void>;

  constructor(private readonly deps: SessionDeps) {
    this.exited = new Promise((resolve) => {
      this.resolveExit = resolve;
    });
    this.view = new TurnView(this.transcript, () => this.now());
    this.controller = new TurnController(deps.app, {
      print: (text, kind) => this.notice(text, kind === 'error' ? 'error' : 'system'),
      exit: () => this.requestExit(),
      progress: (run, text) => {
        this.transcript.progress(run, text);
        this.refresh();
      },
      turnStarted: (input) => this.turnStarted(input),
      event: (event) => {
        this.view.apply(event);
        this.refresh(true);
      },
      turnEnded: (_input, outcome) => this.turnEnded(outcome),
      queueChanged: () => this.refresh(),
      choose: (request, signal) => this.chooser.ask(request, signal),
      setInput: (text) => {
        this.inputFill = { id: (this.inputFill?.id ?? 0) + 1, text };
        this.refresh();
      },
      // The turns a rewind dropped leave the screen too: only the kept ones stay above its report.
      rewound: (dropped) => {
        if (this.transcript.rewind(dropped)) this.refresh();
      },
    });
    this.current = this.build();
  }

  /** Greets, follows extension changes and open questions, and starts the extensions. */
  start(): void {
    this.transcript.line('title', GREETING);
    this.transcript.line('system', GREETING_HINT);
    const { app, elicitor } = this.deps;
    if (app.opened) this.showOpened(describeOpened(app.opened));
    this.unsubscribers.push(app.extensions.onChange(() => this.refresh()));
    this.unsubscribers.push(app.extensions.onNotice((message, kind) => this.notice(message, kind)));
    this.unsubscribers.push(this.deps.approver.onChange(() => this.refresh()));
    this.unsubscribers.push(this.chooser.onChange(() => this.refresh()));
    if (elicitor) this.unsubscribers.push(elicitor.onChange(() => this.refresh()));
    this.refresh();
    app.extensions.start();
  }

  dispose(): void {
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
    this.pacer.dispose();
    this.controller.close();
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
  complete(word: string): Promise<string[]> {
    return this.deps.app.extensions.complete(word);
  }

  submit(input: string): void {
    if (this.exitRequested || input.trim() === '') return;
    void this.deps.history.add(input);
    // A command's line shows at once; a message's when its turn starts (queued ones wait).
    if (CommandTable.isCommand(input)) this.transcript.line('user', input.trim());
    void this.controller.submit(input);
    this.refresh();
  }

  /** A keypress answer for the question that was on screen; ignored if that one is gone. */
  commandNames(): string[] {
    return this.controller.commands.list().map((command) => command.name);
  }

  answer(answer: ApprovalAnswer, question: ApprovalRequest): void {
    if (this.deps.approver.current() === question) this.deps.approver.answer(answer);
  }

  /** Esc: an open form is cancelled (the turn goes on); else a question is answered no and the turn stops. */
  cancel(): void {
    if (!this.deps.approver.current() && this.deps.elicitor?.cancel()) return;
    if (this.deps.approver.current()) this.deps.approver.answer('no');
    this.controller.cancel();
  }

  /** Shift+Tab: the next approval mode, said in the transcript too (the panel's Mode row shows it). */
  cycleMode(): void {
    const mode = this.deps.app.approvalMode.cycle();
    this.notice(`mode: ${mode} — ${MODE_DESCRIPTIONS[mode]} (Shift+Tab for the next)`);
  }

  /**
   * Shows the trust question a reload asks until it is answered: true for "trust", false for "not
   * now", a cancelled command or the person leaving (Ctrl+C there quits, as at start).
   */
  askTrust(question: TrustQuestion, signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      if (this.exitRequested || signal.aborted) {
        resolve(false);
        return;
      }
      this.trustAsk?.resolve('not-now');
      const onAbort = () => open.resolve('not-now');
      const open = {
        view: { trust: question },
        resolve: (answer: TrustAnswer) => {
          signal.removeEventListener('abort', onAbort);
          if (this.trustAsk === open) this.trustAsk = undefined;
          this.refresh();
          resolve(answer === 'trust');
          if (answer === 'quit') this.requestExit();
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.trustAsk = open;
      this.refresh();
    });
  }

  /** The trust question's answer (its keys: trust-keys.ts). */
  answerTrust(answer: TrustAnswer): void {
    this.trustAsk?.resolve(answer);
  }

  /** A command's list on screen was answered (an index) or dismissed (undefined). */
  choose(index: number | undefined): void {
    this.chooser.answer(index);
  }

  /** Esc Esc on an empty input line while nothing runs: `/rewind`'s picker, when it is there. */
  escapeTwice(): void {
    if (this.exitRequested || this.controller.busy || this.chooser.current()) return;
    if (!this.controller.commands.get('rewind')) return;
    this.transcript.line('user', '/rewind');
    void this.controller.submit('/rewind');
    this.refresh();
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

  /** Ctrl+O: the latest reasoning block opens or closes. */
  toggleReasoning(): void {
    if (this.transcript.toggleReasoning()) this.refresh();
  }

  /** Ctrl+C: cancels what is running, or leaves when nothing is. */
  interrupt(): void {
    // A list on screen is dismissed first: Ctrl+C there must not end the session.
    if (this.chooser.answer(undefined)) return;
    if (this.controller.busy || this.deps.approver.current()) this.cancel();
    else this.requestExit();
  }

  requestExit(): void {
    if (this.exitRequested) return;
    this.exitRequested = true;
    this.trustAsk?.resolve('not-now');
    this.cancel();
    this.controller.close();
    this.resolveExit();
  }

  /** A line from outside the conversation: warnings, stray console output. */
  notice(text: string, kind: LineKind = 'system'): void {
    this.transcript.line(kind, text);
    this.refresh();
  }

  /**
   * A continued session: what was said last, so the person sees where they are. The whole
   * transcript stays in the session file; the screen only needs the thread.
   */
  showOpened(summary: string): void {
    const recent = this.deps.app.conversation.messages
      .filter((message) => message.role === 'user' || (message.role === 'assistant' && message.text !== ''))
      .slice(-RECAP_MESSAGES);
    for (const message of recent) {
      if (message.role === 'user') this.transcript.turnLine(message.text, message.id);
      else if (message.role === 'assistant') this.transcript.line('model', message.text);
    }
    this.transcript.line('system', summary);
    this.refresh();
  }

  private turnStarted(input: string): void {
    this.transcript.turnLine(input);
    if (!this.deps.app.settings.apiKey) return;
    this.turnStartedAt = this.now();
    this.view.begin();
    this.refresh();
  }

  private turnEnded(outcome: TurnOutcome): void {
    // The turn's message is the conversation's newest one (unless the turn was taken back out).
    const sent = this.deps.app.conversation.messages.findLast((message) => message.role === 'user');
    if (sent) this.transcript.turnMessage(sent.id);
    let finalText: string | undefined;
    switch (outcome.kind) {
      case 'not_configured':
        this.notice(outcome.message, 'error');
        return;
      case 'completed':
        finalText = outcome.result.text;
        break;
      case 'cut':
        // The text that came stays on screen; the notice says it is not all, and why.
        finalText = outcome.result.text;
        break;
      case 'max_rounds':
        this.transcript.line('system', outcome.result.text);
        break;
      case 'cancelled':
        this.transcript.line('system', 'cancelled');
        break;
      case 'failed':
        this.transcript.line('error', outcome.message);
        break;
    }
    this.view.finish(finalText);
    if (outcome.kind === 'cut') this.transcript.line('error', cutLine(outcome));
    if (this.turnStartedAt !== undefined && answered(outcome)) {
      this.transcript.line(
        'system',
        turnSummary(this.now() - this.turnStartedAt, this.view.producedTokens, this.view.cachedPercent),
      );
    }
    this.turnStartedAt = undefined;
    this.refresh();
  }

  /** Marks the view changed; listeners hear of it on the next tick, or the next frame when `paced` (the model's events). */
  private refresh(paced = false): void {
    this.dirty = true;
    this.pacer.request(paced);
  }

  private build(): SessionSnapshot {
    const { app, approver } = this.deps;
    return {
      entries: this.transcript.entries,
      rewinds: this.transcript.rewinds,
      busy: this.controller.busy,
      turnStartedAt: this.turnStartedAt,
      turnOutputTokens: this.view.producedTokens,
      queued: [...this.controller.queued],
      tools: this.view.tools,
      question: approver.current(),
      questionExplicit: approver.currentIsExplicit(),
      ...(this.trustAsk ? { trust: this.trustAsk.view } : {}),
      form: this.deps.elicitor?.current(),
      choice: this.chooser.current(),
      inputFill: this.inputFill,
      panel: {
        model: app.settings.apiKey ? `${app.provider.name} · ${app.provider.model}` : undefined,
        cachedPercent: cachedPercent(app.conversation.lastUsage),
        root: app.root,
        contextTokens: app.conversation.contextTokens,
        contextWindow: app.provider.contextWindow,
        turnTokens: this.view.turnTokens,
        totalTokens: app.conversation.totalUsage.totalTokens,
        rows: app.extensions.panelRows(),
      },
    };
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }
}

/**
 * The line under a finished turn: `✓ 12.3s · 1,234 tokens · 100 tok/s · cached 87%` (the share
 * of the turn's prompt tokens read from the provider's cache, when it reports them).
 */
export function turnSummary(ms: number, tokens: number, cached?: number): string {
  const seconds = Math.max(0, ms) / 1000;
  const rate = seconds >= 0.5 && tokens > 0 ? ` · ${Math.round(tokens / seconds)} tok/s` : '';
  const cache = cached === undefined ? '' : ` · cached ${cached}%`;
  return `✓ ${seconds.toFixed(1)}s · ${tokens.toLocaleString('en-US')} tokens${rate}${cache}`;
}
