/**
 * The TUI's Approver: each `ask` waits in a queue until the person presses a key. Only the head
 * question is shown; the rest wait their turn, and a cancelled turn withdraws its own questions.
 * A question asked with `explicit` (a server's own request, such as sampling) is never answered by
 * a key typed for the input line: only by a focused choice (see key-actions.ts).
 */
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../permissions/types.js';

export interface AskOptions {
  /** Answered only by an explicit, focused choice: the question may appear while the person types. */
  explicit?: boolean;
}

interface Waiting {
  request: ApprovalRequest;
  explicit: boolean;
  resolve: (answer: ApprovalAnswer) => void;
  withdraw: () => void;
}

export class TuiApprover implements Approver {
  private readonly waiting: Waiting[] = [];
  private readonly listeners = new Set<() => void>();

  /** The question on screen now. */
  current(): ApprovalRequest | undefined {
    return this.waiting[0]?.request;
  }

  /** The question on screen needs an explicit, focused choice. */
  currentIsExplicit(): boolean {
    return this.waiting[0]?.explicit ?? false;
  }

  get pending(): number {
    return this.waiting.length;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  ask(request: ApprovalRequest, signal: AbortSignal, options: AskOptions = {}): Promise<ApprovalAnswer> {
    return new Promise<ApprovalAnswer>((resolve, reject) => {
      if (signal.aborted) {
        reject(abortReason(signal));
        return;
      }
      const onAbort = () => {
        this.remove(item);
        reject(abortReason(signal));
      };
      const item: Waiting = {
        request,
        explicit: options.explicit ?? false,
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
        withdraw: () => signal.removeEventListener('abort', onAbort),
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(item);
      this.notify();
    });
  }

  /** Answers the question on screen; false when none is open. */
  answer(answer: ApprovalAnswer): boolean {
    const head = this.waiting.shift();
    if (!head) return false;
    head.resolve(answer);
    this.notify();
    return true;
  }

  refusalMessage(toolName: string): string {
    return `the user declined to run ${toolName}`;
  }

  private remove(item: Waiting): void {
    const index = this.waiting.indexOf(item);
    if (index < 0) return;
    this.waiting.splice(index, 1);
    item.withdraw();
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('cancelled', 'AbortError');
}
