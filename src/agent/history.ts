/**
 * The history model: the conversation as provider-neutral messages with ids. Every change is one
 * of five operations (append, truncate, rewind, replace a range, load), reported to listeners as data —
 * the session log records them, and replaying them (`applyChange`) rebuilds the same history.
 */
import type { Message } from '../providers/messages.js';

export type HistoryMessage = Message & { id: string };

export type HistoryChange =
  | { type: 'append'; message: HistoryMessage }
  /** Keep messages up to and including `after`; null keeps none (a reset). */
  | { type: 'truncate'; after: string | null }
  /**
   * `/rewind`: message `to` (a user message) and everything after it are dropped. Recorded as its
   * own kind so a session file shows where the person went back to (the lines stay in the file).
   */
  | { type: 'rewind'; to: string }
  /** Messages `from`..`to` (inclusive) became `messages` (compaction: a summary, pruned outputs). */
  | { type: 'replace'; from: string; to: string; messages: HistoryMessage[]; reason: string }
  /** The whole history was swapped for another (a session was opened): nothing new to record. */
  | { type: 'load' };

export type HistoryListener = (change: HistoryChange) => void;

export class History {
  private list: HistoryMessage[] = [];
  private readonly listeners = new Set<HistoryListener>();
  /** Ids are `<random prefix><counter>`: unique across runs of one session, cheap to make. */
  // Math.random, not node:crypto: 24 bits that need no secrecy, and every start makes a History
  // before its first request (crypto would load for it, ~5 ms).
  private readonly prefix = Math.floor(Math.random() * 0x1000000)
    .toString(16)
    .padStart(6, '0');
  private counter = 0;

  get messages(): readonly HistoryMessage[] {
    return this.list;
  }

  get length(): number {
    return this.list.length;
  }

  get last(): HistoryMessage | undefined {
    return this.list[this.list.length - 1];
  }

  onChange(listener: HistoryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  newId(): string {
    this.counter += 1;
    return `${this.prefix}${this.counter.toString(36)}`;
  }

  append(message: Message): HistoryMessage {
    const stored = { ...message, id: this.newId() } as HistoryMessage;
    this.list.push(stored);
    this.emit({ type: 'append', message: stored });
    return stored;
  }

  /** Drops everything after `after` (null: everything). */
  truncateAfter(after: string | null): void {
    const next = applyChange(this.list, { type: 'truncate', after });
    if (next.length === this.list.length) return;
    this.list = next;
    this.emit({ type: 'truncate', after });
  }

  /** Goes back to before message `to` (it and what follows are dropped); false if it is not here. */
  rewindTo(to: string): boolean {
    if (this.indexOf(to) < 0) return false;
    const change: HistoryChange = { type: 'rewind', to };
    this.list = applyChange(this.list, change);
    this.emit(change);
    return true;
  }

  /** Replaces messages `from`..`to` (inclusive, in order) with `messages` (given fresh ids). */
  replaceRange(from: string, to: string, messages: readonly Message[], reason: string): HistoryMessage[] {
    const stored = messages.map((message) => ({ ...message, id: this.newId() }) as HistoryMessage);
    const change: HistoryChange = { type: 'replace', from, to, messages: stored, reason };
    this.list = applyChange(this.list, change);
    this.emit(change);
    return stored;
  }

  /** Swaps in another conversation (an opened session); listeners hear `load`, not the messages. */
  load(messages: readonly HistoryMessage[]): void {
    this.list = [...messages];
    this.emit({ type: 'load' });
  }

  /**
   * Gives every tool call without a result a synthetic "interrupted" one (a run killed mid-round),
   * so the next request is valid for every provider. Returns how many were added.
   */
  repairToolResults(): number {
    const repairs = missingToolResults(this.list);
    const byAnchor = new Map<string, Message[]>();
    for (const repair of repairs)
      byAnchor.set(repair.after, [...(byAnchor.get(repair.after) ?? []), repair.message]);
    for (const [after, added] of byAnchor) {
      if (this.last?.id === after) {
        for (const message of added) this.append(message);
        continue;
      }
      const anchor = this.list[this.indexOf(after)];
      if (!anchor) continue;
      const { id: _id, ...plain } = anchor;
      this.replaceRange(after, after, [plain as Message, ...added], 'repair');
    }
    return repairs.length;
  }

  indexOf(id: string): number {
    return this.list.findIndex((message) => message.id === id);
  }

  private emit(change: HistoryChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

/**
 * One recorded change applied to a message list (a new list; the input is not changed). A change
 * that names an id the list does not have leaves it as it is: a log stays replayable.
 */
export function applyChange(list: readonly HistoryMessage[], change: HistoryChange): HistoryMessage[] {
  switch (change.type) {
    case 'append':
      return [...list, change.message];
    case 'truncate': {
      if (change.after === null) return [];
      const at = list.findIndex((message) => message.id === change.after);
      return at < 0 ? [...list] : list.slice(0, at + 1);
    }
    case 'rewind': {
      const at = list.findIndex((message) => message.id === change.to);
      return at < 0 ? [...list] : list.slice(0, at);
    }
    case 'replace': {
      const from = list.findIndex((message) => message.id === change.from);
      const to = list.findIndex((message) => message.id === change.to);
      if (from < 0 || to < from) return [...list];
      return [...list.slice(0, from), ...change.messages, ...list.slice(to + 1)];
    }
    case 'load':
      return [...list];
  }
}

/**
 * Makes a history valid to send: every tool call gets a result right after its assistant message
 * (a run cut short by a crash left some without one), and results whose call is gone are dropped.
 * Returns the messages to insert, each with the id of the message it follows, so callers can
 * record the repair.
 */
export function missingToolResults(
  list: readonly HistoryMessage[],
): Array<{ after: string; message: Message }> {
  const repairs: Array<{ after: string; message: Message }> = [];
  for (let i = 0; i < list.length; i++) {
    const message = list[i]!;
    if (message.role !== 'assistant' || !message.toolCalls?.length) continue;
    const answered = new Set<string>();
    let j = i + 1;
    for (; j < list.length; j++) {
      const next = list[j]!;
      if (next.role !== 'tool') break;
      answered.add(next.callId);
    }
    const lastOfRun = list[j - 1]!;
    for (const call of message.toolCalls) {
      if (answered.has(call.id)) continue;
      repairs.push({
        after: lastOfRun.id,
        message: {
          role: 'tool',
          callId: call.id,
          name: call.name,
          output: 'interrupted: the agent stopped before this tool call finished; its effect is unknown',
          isError: true,
        },
      });
    }
  }
  return repairs;
}
