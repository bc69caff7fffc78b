/**
 * The TUI's answer to a server's elicitation: a form built from the requested schema, filled in
 * one field at a time in the input line (defaults prefilled), then accepted, declined or
 * cancelled. Requests queue like approval questions; a cancelled request withdraws its form. A
 * form takes the input line only once the person focuses it (Tab): it may appear mid-typing.
 */
import type {
  ElicitationAnswer,
  ElicitationHandler,
  ElicitationRequest,
  FieldValue,
} from '../mcp/client-features.js';
import { type FormField, formFields, parseField } from '../mcp/elicitation-form.js';

export { type FormField, formFields, parseField };

export interface FormView {
  /** The request: a new form needs its own explicit focus (Tab) before keys reach it. */
  id: number;
  /** Changes whenever the input line should be refilled (a new form, or the next field). */
  key: string;
  server: string;
  message: string;
  fields: FormField[];
  values: Record<string, FieldValue>;
  /** The field being asked; `fields.length` is the final accept/decline step. */
  index: number;
  error?: string;
  /** What the input line starts with for this step. */
  prefill: string;
}

interface Waiting {
  request: ElicitationRequest;
  fields: FormField[];
  values: Record<string, FieldValue>;
  index: number;
  error?: string;
  id: number;
  resolve: (answer: ElicitationAnswer) => void;
}

export class TuiElicitor implements ElicitationHandler {
  private readonly waiting: Waiting[] = [];
  private readonly listeners = new Set<() => void>();
  private nextId = 1;

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  elicit(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
    return new Promise((resolve) => {
      const item: Waiting = {
        request,
        fields: formFields(request),
        values: {},
        index: 0,
        id: this.nextId++,
        resolve,
      };
      const onAbort = () => this.finish(item, { action: 'cancel' });
      item.resolve = (answer) => {
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(item);
      this.notify();
    });
  }

  current(): FormView | undefined {
    const head = this.waiting[0];
    if (!head) return undefined;
    const field = head.fields[head.index];
    const value = field ? (head.values[field.name] ?? field.default) : undefined;
    return {
      id: head.id,
      key: `${head.id}:${head.index}`,
      server: head.request.server,
      message: head.request.message,
      fields: head.fields,
      values: head.values,
      index: head.index,
      error: head.error,
      prefill: value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value),
    };
  }

  /** Enter: the current field's text, or at the last step `''` accepts and `d` declines. */
  input(text: string): void {
    const head = this.waiting[0];
    if (!head) return;
    const field = head.fields[head.index];
    if (!field) {
      const choice = text.trim().toLowerCase();
      if (choice === 'd' || choice === 'decline') this.finish(head, { action: 'decline' });
      else if (choice === 'c' || choice === 'cancel') this.finish(head, { action: 'cancel' });
      else this.finish(head, { action: 'accept', content: head.values });
      return;
    }
    const parsed = parseField(field, text);
    if (typeof parsed === 'object' && parsed !== null && 'error' in parsed) {
      head.error = parsed.error;
    } else {
      head.error = undefined;
      if (parsed === undefined) delete head.values[field.name];
      else head.values[field.name] = parsed;
      head.index++;
    }
    this.notify();
  }

  cancel(): boolean {
    const head = this.waiting[0];
    if (!head) return false;
    this.finish(head, { action: 'cancel' });
    return true;
  }

  private finish(item: Waiting, answer: ElicitationAnswer): void {
    const index = this.waiting.indexOf(item);
    if (index < 0) return;
    this.waiting.splice(index, 1);
    item.resolve(answer);
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
