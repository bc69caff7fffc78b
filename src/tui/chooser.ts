/**
 * The TUI's list picker behind a command's `choose` (`/rewind`): one list on screen at a time,
 * later ones wait; ↑/↓ and Enter pick (choice-keys.ts), Esc dismisses. A cancelled command
 * withdraws its list, which then resolves as dismissed.
 */
import type { ChoiceRequest } from '../commands/types.js';

/** The list on screen: a new id for each list asked. */
export interface ChoiceView extends ChoiceRequest {
  id: number;
}

interface Waiting {
  view: ChoiceView;
  resolve: (index: number | undefined) => void;
}

export class TuiChooser {
  private readonly waiting: Waiting[] = [];
  private readonly listeners = new Set<() => void>();
  private asked = 0;

  current(): ChoiceView | undefined {
    return this.waiting[0]?.view;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  ask(request: ChoiceRequest, signal: AbortSignal): Promise<number | undefined> {
    return new Promise((resolve) => {
      if (signal.aborted || request.options.length === 0) {
        resolve(undefined);
        return;
      }
      const onAbort = () => this.finish(item, undefined);
      const item: Waiting = {
        view: { id: ++this.asked, title: request.title, options: [...request.options] },
        resolve: (index) => {
          signal.removeEventListener('abort', onAbort);
          resolve(index);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(item);
      this.notify();
    });
  }

  /** The list on screen is answered: an option's index, or undefined (dismissed). False if none is open. */
  answer(index: number | undefined): boolean {
    const head = this.waiting[0];
    if (!head) return false;
    const valid = index !== undefined && index >= 0 && index < head.view.options.length;
    this.finish(head, valid ? index : undefined);
    return true;
  }

  private finish(item: Waiting, index: number | undefined): void {
    const at = this.waiting.indexOf(item);
    if (at < 0) return;
    this.waiting.splice(at, 1);
    item.resolve(index);
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
