/**
 * The transcript's entries in memory: append lines, grow the streaming model and reasoning
 * entries, cap the length. Entries are replaced, never mutated, so memoised components re-render
 * only what changed. Streamed deltas are only collected when they arrive and joined into the open
 * entry when the entries are next read (once per screen update): a 1 MB answer comes in tens of
 * thousands of deltas, and copying the list for each would stall the screen. Each turn's first
 * entry is marked with the conversation message it sent, so a rewind can take the transcript back
 * to before that message.
 */
import type { ApprovalAnswer, ApprovalRequest } from '../permissions/types.js';
import type { Entry, LineKind } from './types.js';

/** Older entries are dropped beyond this; the screen only ever shows the newest few hundred. */
export const KEEP_ENTRIES = 2_000;
/** …and beyond this many characters of text in all: memory stays bounded whatever streams in. */
export const KEEP_CHARS = 16_000_000;

type Streamed = { id: number; kind: 'model'; text: string } | Extract<Entry, { kind: 'reasoning' }>;

export class TranscriptStore {
  private list: Entry[] = [];
  private nextId = 1;
  private chars = 0;
  /** The entry that deltas extend (the last one), and the deltas not yet joined into it. */
  private open: { id: number; kind: 'model' | 'reasoning'; pending: string[] } | undefined;
  /** The progress line of the latest command that showed one. */
  private progressLine: { run: number; id: number } | undefined;
  /**
   * Where each turn starts (its `You ›` line), oldest first, with the id of the user message it
   * added to the conversation once known (undefined: not known yet, or the turn was taken back).
   */
  private turns: Array<{ entryId: number; messageId: string | undefined }> = [];
  /** How many times a rewind took entries off (the screen follows the end again after one). */
  rewinds = 0;

  get entries(): readonly Entry[] {
    this.flush();
    return this.list;
  }

  line(kind: LineKind, text: string): void {
    this.close();
    this.push({ id: this.nextId++, kind, text });
  }

  /** A turn's `You ›` line: the mark a rewind goes back to (`messageId` when already known). */
  turnLine(text: string, messageId?: string): void {
    this.line('user', text);
    this.turns.push({ entryId: this.nextId - 1, messageId });
  }

  /** The latest turn's user message, once the conversation has it (ignored when already known). */
  turnMessage(messageId: string): void {
    const last = this.turns.at(-1);
    if (!last || last.messageId !== undefined) return;
    if (this.turns.some((turn) => turn.messageId === messageId)) return;
    last.messageId = messageId;
  }

  /**
   * The conversation dropped the user messages `dropped`: the transcript goes back to before the
   * first turn that sent one of them (its line and everything after it). False when none is shown.
   */
  rewind(dropped: readonly string[]): boolean {
    const gone = new Set(dropped);
    const at = this.turns.findIndex((turn) => turn.messageId !== undefined && gone.has(turn.messageId));
    if (at < 0) return false;
    const entryId = this.turns[at]!.entryId;
    this.turns = this.turns.slice(0, at);
    this.rewinds++;
    this.flush();
    this.open = undefined;
    this.progressLine = undefined;
    // Ids grow with the list: the first entry at or after the mark is where it goes back to (the
    // line itself may have been trimmed away already).
    const from = this.list.findIndex((entry) => entry.id >= entryId);
    if (from < 0) return true;
    for (const entry of this.list.slice(from)) this.chars -= textOf(entry).length;
    this.list = this.list.slice(0, from);
    return true;
  }

  /**
   * A command's progress line: the first call of a run adds a line, later ones replace its text
   * in place (a bar, not a line per step) while it is still in the transcript.
   */
  progress(run: number, text: string): void {
    this.flush();
    const at = this.progressLine?.run === run ? this.indexOf(this.progressLine.id) : -1;
    const entry = this.list[at];
    if (entry === undefined || !('text' in entry) || entry.kind !== 'system') {
      this.line('system', text);
      this.progressLine = { run, id: this.nextId - 1 };
      return;
    }
    this.chars += text.length - entry.text.length;
    this.replace(at, { ...entry, text });
  }

  question(request: ApprovalRequest, answer: ApprovalAnswer): void {
    this.close();
    this.push({ id: this.nextId++, kind: 'question', request, answer });
  }

  /** Appends streamed model text to the open model entry, opening one when needed. */
  modelText(delta: string, now?: number): void {
    // The answer starts: the reasoning before it ends now.
    if (this.open?.kind === 'reasoning') this.close(now);
    this.stream('model', delta, () => ({ id: this.nextId++, kind: 'model', text: '' }));
  }

  /** Appends streamed reasoning to the open reasoning block, opening one (started `now`) when needed. */
  reasoningText(delta: string, now: number): void {
    this.stream('reasoning', delta, () => ({
      id: this.nextId++,
      kind: 'reasoning',
      text: '',
      startedAt: now,
      endedAt: undefined,
      expanded: false,
    }));
  }

  /** Ends the open model entry, so the next text starts a new one (a new round, a tool call). */
  endStream(now?: number): boolean {
    const had = this.open !== undefined;
    this.close(now);
    return had;
  }

  /** Ctrl+O: expands or collapses the latest reasoning block; false when there is none. */
  toggleReasoning(): boolean {
    this.flush();
    for (let i = this.list.length - 1; i >= 0; i--) {
      const entry = this.list[i]!;
      if (entry.kind !== 'reasoning') continue;
      this.replace(i, { ...entry, expanded: !entry.expanded });
      return true;
    }
    return false;
  }

  private stream(kind: 'model' | 'reasoning', delta: string, create: () => Streamed): void {
    if (this.open?.kind !== kind) {
      this.close();
      const entry = create();
      this.push(entry);
      this.open = { id: entry.id, kind, pending: [] };
    }
    this.open.pending.push(delta);
    this.chars += delta.length;
  }

  /** Joins the collected deltas into the open entry (a new object, for the memoised views). */
  private flush(): void {
    const open = this.open;
    if (!open || open.pending.length === 0) return;
    const index = this.list.length - 1;
    const last = this.list[index];
    const delta = open.pending.join('');
    open.pending = [];
    if (last?.id !== open.id || (last.kind !== 'model' && last.kind !== 'reasoning')) return;
    this.replace(index, { ...last, text: last.text + delta });
    this.trim();
  }

  /** Joins what is pending and closes the open entry; a reasoning block records when it ended. */
  private close(now?: number): void {
    this.flush();
    const open = this.open;
    this.open = undefined;
    if (open?.kind !== 'reasoning') return;
    const index = this.list.length - 1;
    const last = this.list[index];
    if (last?.id === open.id && last.kind === 'reasoning')
      this.replace(index, { ...last, endedAt: now ?? Date.now() });
  }

  private indexOf(id: number): number {
    for (let i = this.list.length - 1; i >= 0; i--) if (this.list[i]!.id === id) return i;
    return -1;
  }

  private replace(index: number, entry: Entry): void {
    const next = this.list.slice();
    next[index] = entry;
    this.list = next;
  }

  private push(entry: Entry): void {
    this.list = [...this.list, entry];
    this.chars += textOf(entry).length;
    this.trim();
  }

  private trim(): void {
    let drop = Math.max(0, this.list.length - KEEP_ENTRIES);
    let chars = this.chars;
    for (let i = 0; i < drop; i++) chars -= textOf(this.list[i]!).length;
    // Never drop the newest entry: it may be the one streaming.
    while (chars > KEEP_CHARS && drop < this.list.length - 1) chars -= textOf(this.list[drop++]!).length;
    if (drop === 0) return;
    this.list = this.list.slice(drop);
    this.chars = chars;
  }
}

function textOf(entry: Entry): string {
  return entry.kind === 'question' ? '' : entry.text;
}
