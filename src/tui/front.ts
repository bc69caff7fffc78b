/**
 * What the screen talks to: the session once the app is built, and until then a start-up stand-in,
 * so the first frame (input line and panel) is drawn before the app's modules load. Keys typed
 * meanwhile edit the input line as usual; a line sent with Enter waits (shown as queued) and goes
 * to the session when it arrives; Ctrl+C / Ctrl+D leave. Start-up notices (stray console output)
 * are shown and handed on the same way. The folder-trust question is asked here, on the drawn
 * screen, before the session exists: what was typed before it stays typed (a queued line waits
 * for the session, which comes only after the answer) and never answers it (trust-keys.ts).
 * Holds no agent logic and loads none: plain view state.
 */
import type { InputHistory } from './history.js';
import type { KeyTarget } from './key-actions.js';
import type { Entry, LineKind, SessionSnapshot, TrustAnswer, TrustQuestionView } from './types.js';

export const GREETING = 'GeekAgent — MCP-first terminal agent';
export const GREETING_HINT =
  'Type /help for commands. Servers in .geekagent/mcp.json connect automatically; /mcp shows them.';

/** The part of the session the screen uses: its snapshot, change notifications and the keys. */
export interface SessionView extends KeyTarget {
  subscribe(listener: () => void): () => void;
  snapshot(): SessionSnapshot;
}

/** The session as the front needs it once it is there. */
export interface FrontSession extends SessionView {
  notice(text: string, kind?: LineKind): void;
  /** The answer to a trust question the session asks (a reload's). */
  answerTrust?(answer: TrustAnswer): void;
}

export class SessionFront implements SessionView {
  private session: FrontSession | undefined;
  private readonly listeners = new Set<() => void>();
  /** Lines sent with Enter before the session exists, in order. */
  private readonly pending: string[] = [];
  private readonly notices: Array<{ text: string; kind: LineKind }> = [];
  private current: SessionSnapshot;
  private exitRequested = false;
  /** The trust question on screen, and who waits for its answer. */
  private trustAsk: { view: TrustQuestionView; resolve: (answer: TrustAnswer) => void } | undefined;
  private resolveExit: () => void = () => undefined;
  /** Resolves when the person leaves before the session exists (Ctrl+C, Ctrl+D). */
  readonly exited: Promise<void>;

  /** `history` is the one the session will use (↑ recalls from it during start-up too). */
  constructor(readonly history: InputHistory) {
    this.exited = new Promise((resolve) => {
      this.resolveExit = resolve;
    });
    this.current = this.build();
  }

  /** The session is there: queued lines and notices go to it, and the screen follows it. */
  attach(session: FrontSession): void {
    if (this.session) return;
    this.session = session;
    for (const { text, kind } of this.notices.splice(0)) session.notice(text, kind);
    for (const input of this.pending.splice(0)) session.submit(input);
    session.subscribe(this.notify);
    // Ctrl+C in the same moment the session arrived: it still means leave.
    if (this.exitRequested) session.requestExit();
    this.notify();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): SessionSnapshot => this.session?.snapshot() ?? this.current;

  submit(input: string): void {
    if (this.session) {
      this.session.submit(input);
      return;
    }
    if (this.exitRequested || input.trim() === '') return;
    this.pending.push(input);
    this.changed();
  }

  commandNames(): string[] {
    return this.session?.commandNames?.() ?? [];
  }

  /** Nothing to complete from before the session exists. */
  complete(word: string): Promise<string[]> {
    return this.session?.complete?.(word) ?? Promise.resolve([]);
  }

  answer(...args: Parameters<KeyTarget['answer']>): void {
    this.session?.answer(...args);
  }

  cancel(): void {
    this.session?.cancel();
  }

  interrupt(): void {
    if (this.session) this.session.interrupt();
    else this.requestExit();
  }

  requestExit(): void {
    if (this.session) {
      this.session.requestExit();
      return;
    }
    if (this.exitRequested) return;
    this.exitRequested = true;
    this.answerTrust('quit');
    this.resolveExit();
  }

  /** Shows the trust question until it is answered (`quit` when the person leaves instead). */
  askTrust(trust: TrustQuestionView['trust']): Promise<TrustAnswer> {
    this.trustAsk?.resolve('quit');
    return new Promise((resolve) => {
      if (this.exitRequested || this.session) {
        resolve('quit');
        return;
      }
      this.trustAsk = { view: { trust }, resolve };
      this.changed();
    });
  }

  answerTrust(answer: TrustAnswer): void {
    const open = this.trustAsk;
    if (!open) {
      this.session?.answerTrust?.(answer);
      return;
    }
    this.trustAsk = undefined;
    this.changed();
    open.resolve(answer);
  }

  formInput(text: string): void {
    this.session?.formInput(text);
  }

  choose(index: number | undefined): void {
    this.session?.choose?.(index);
  }

  escapeTwice(): void {
    this.session?.escapeTwice?.();
  }

  toggleReasoning(): void {
    this.session?.toggleReasoning?.();
  }

  /** Shift+Tab: nothing to switch before the app is up. */
  cycleMode(): void {
    this.session?.cycleMode?.();
  }

  notice(text: string, kind: LineKind = 'system'): void {
    if (this.session) {
      this.session.notice(text, kind);
      return;
    }
    this.notices.push({ text, kind });
    this.changed();
  }

  private changed(): void {
    this.current = this.build();
    this.notify();
  }

  private readonly notify = (): void => {
    for (const listener of this.listeners) listener();
  };

  private build(): SessionSnapshot {
    // The session's transcript starts with the same two lines (ids 1 and 2).
    const entries: Entry[] = [
      { id: 1, kind: 'title', text: GREETING },
      { id: 2, kind: 'system', text: GREETING_HINT },
      ...this.notices.map(({ text, kind }, i) => ({ id: 3 + i, kind, text })),
    ];
    return {
      entries,
      busy: false,
      turnStartedAt: undefined,
      queued: [...this.pending],
      tools: [],
      question: undefined,
      questionExplicit: false,
      trust: this.trustAsk?.view,
      form: undefined,
      panel: {
        starting: true,
        model: undefined,
        root: '',
        contextTokens: 0,
        contextWindow: 0,
        turnTokens: 0,
        totalTokens: 0,
        rows: [],
      },
    };
  }
}
