/**
 * The in-band questions of stream-json input: a `control_request` line with a fresh request id
 * (a tool's `can_use_tool`, a server's `elicitation`), answered by the `control_response` line with
 * that id. A question its asker gives up on (the turn cancelled, the server withdrew it) is
 * withdrawn with a `control_cancel_request` line; once stdin closes nobody can answer any more.
 */
import type { MessageSink } from './output.js';

/** What the program answered: its `response` object as sent, or its error. */
export type ControlReply = { subtype: 'success'; response: unknown } | { subtype: 'error'; message: string };

export type ControlOutcome =
  | { kind: 'answered'; reply: ControlReply }
  /** The asker's signal fired first: the request was withdrawn. */
  | { kind: 'withdrawn' }
  /** Stdin closed: nobody can answer. */
  | { kind: 'closed' };

/** Whether a reply is one the asker can use: undefined, or what is wrong with it (it keeps waiting). */
export type ReplyCheck = (reply: ControlReply) => string | undefined;

interface Waiting {
  check?: ReplyCheck;
  resolve: (outcome: ControlOutcome) => void;
}

export type AnswerResult = { kind: 'taken' } | { kind: 'unknown' } | { kind: 'invalid'; message: string };

export class ControlChannel {
  private readonly waiting = new Map<string, Waiting>();
  private counter = 0;
  private closed = false;

  constructor(private readonly lines: MessageSink) {}

  /** Writes the request and waits for its answer (or its withdrawal, or stdin closing). */
  request(
    request: Record<string, unknown>,
    signal: AbortSignal,
    check?: ReplyCheck,
  ): Promise<ControlOutcome> {
    if (this.closed) return Promise.resolve({ kind: 'closed' });
    if (signal.aborted) return Promise.resolve({ kind: 'withdrawn' });
    const requestId = `req_${++this.counter}`;
    return new Promise((resolve) => {
      const withdraw = () => {
        if (!this.waiting.delete(requestId)) return;
        this.lines.write({ type: 'control_cancel_request', request_id: requestId });
        resolve({ kind: 'withdrawn' });
      };
      signal.addEventListener('abort', withdraw, { once: true });
      this.waiting.set(requestId, {
        ...(check ? { check } : {}),
        resolve: (outcome) => {
          signal.removeEventListener('abort', withdraw);
          resolve(outcome);
        },
      });
      this.lines.write({ type: 'control_request', request_id: requestId, request });
    });
  }

  /** A control_response line arrived. */
  answer(requestId: string, reply: ControlReply): AnswerResult {
    const waiting = this.waiting.get(requestId);
    if (!waiting) return { kind: 'unknown' };
    const problem = waiting.check?.(reply);
    if (problem !== undefined) return { kind: 'invalid', message: problem };
    this.waiting.delete(requestId);
    waiting.resolve({ kind: 'answered', reply });
    return { kind: 'taken' };
  }

  /** Stdin closed: what waits gets no answer, and neither does any later request. */
  close(): void {
    this.closed = true;
    for (const [id, waiting] of this.waiting) {
      this.waiting.delete(id);
      waiting.resolve({ kind: 'closed' });
    }
  }
}
