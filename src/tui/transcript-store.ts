/**
 * The transcript's entries in memory: append lines, grow the streaming model entry, cap the
 * length. Entries are replaced, never mutated, so memoised components re-render only what changed.
 */
import type { ApprovalAnswer, ApprovalRequest } from '../permissions/types.js';
import type { Entry, LineKind } from './types.js';

/** Older entries are dropped beyond this; the screen only ever shows the newest few hundred. */
export const KEEP_ENTRIES = 2_000;

export class TranscriptStore {
  private list: Entry[] = [];
  private nextId = 1;
  /** The model entry that text deltas extend; cleared when anything else happens. */
  private streamingId: number | undefined;

  get entries(): readonly Entry[] {
    return this.list;
  }

  line(kind: LineKind, text: string): void {
    this.streamingId = undefined;
    this.push({ id: this.nextId++, kind, text });
  }

  question(request: ApprovalRequest, answer: ApprovalAnswer): void {
    this.streamingId = undefined;
    this.push({ id: this.nextId++, kind: 'question', request, answer });
  }

  /** Appends streamed model text to the open model entry, opening one when needed. */
  modelText(delta: string): void {
    const last = this.list[this.list.length - 1];
    if (last && last.id === this.streamingId && last.kind === 'model') {
      this.list = [...this.list.slice(0, -1), { ...last, text: last.text + delta }];
      return;
    }
    const id = this.nextId++;
    this.push({ id, kind: 'model', text: delta });
    this.streamingId = id;
  }

  /** Ends the open model entry, so the next text starts a new one (a new round, a tool call). */
  endStream(): boolean {
    const had = this.streamingId !== undefined;
    this.streamingId = undefined;
    return had;
  }

  private push(entry: Entry): void {
    const next = [...this.list, entry];
    this.list = next.length > KEEP_ENTRIES ? next.slice(next.length - KEEP_ENTRIES) : next;
  }
}
