/**
 * `/rewind`'s core, without a face: the points a conversation can go back to (its user messages,
 * newest first, shown escaped), and going back to before one — the conversation (a `rewind`
 * record in the session file: the messages stay there, replay drops them), the files the agent
 * wrote or patched since (the undo log's entries of that turn and every later one of this
 * session, rewound turns included), or both.
 */
import type { Conversation } from '../agent/conversation.js';
import type { ConfirmProtectedRestore, UndoRewindReport, UndoStack } from '../permissions/undo.js';
import { compactLine, cutTo } from '../util/compact-text.js';
import { visibleLine } from '../util/terminal-text.js';
import { titleOf } from './log.js';
import type { Sessions } from './manager.js';

export type RewindMode = 'both' | 'conversation' | 'files';

export interface RewindPoint {
  /** The user message's id: the rewind goes back to before it. */
  id: string;
  /** Its whole text (what the input line gets back). */
  text: string;
  /** Its first line, shortened, control characters made visible: safe to draw. */
  label: string;
}

export interface RewindResult {
  /** User messages dropped from the conversation (undefined: the conversation was left alone). */
  droppedTurns?: number;
  /** Their ids, oldest first (the face drops their turns from the screen). */
  droppedIds?: string[];
  files?: UndoRewindReport;
  /** The `run_shell` commands of the turns since then, as the model wrote them: never undone. */
  commands: string[];
}

/** How many of those commands the report names, and how much of each. */
const COMMANDS_SHOWN = 5;
const COMMAND_WIDTH = 80;

export interface RewinderDeps {
  conversation: Conversation;
  sessions: Pick<Sessions, 'sentOrder'>;
  undo: Pick<UndoStack, 'rewindTurns' | 'turnFiles' | 'tagTurns'>;
}

export class Rewinder {
  constructor(private readonly deps: RewinderDeps) {
    // Every write from now on names the turn it belongs to: the conversation's latest user message.
    deps.undo.tagTurns(() => this.currentTurn());
  }

  /** The conversation's user messages, newest first. */
  points(): RewindPoint[] {
    const points: RewindPoint[] = [];
    for (const message of this.deps.conversation.messages) {
      if (message.role !== 'user') continue;
      points.unshift({ id: message.id, text: message.text, label: visibleLine(titleOf(message.text)) });
    }
    return points;
  }

  /** For each point (by id): the files its turn and the later ones changed, as shown. */
  async filesSince(points: readonly RewindPoint[]): Promise<Map<string, string[]>> {
    const byTurn = await this.deps.undo.turnFiles();
    const result = new Map<string, string[]>();
    for (const point of points) {
      const since = this.sinceSelector(point.id);
      const files = new Set<string>();
      for (const [turn, shown] of byTurn) if (since(turn)) for (const file of shown) files.add(file);
      result.set(point.id, [...files]);
    }
    return result;
  }

  /**
   * Goes back to before `id`; the files first, so a failure there leaves the conversation as it
   * was. A protected path is restored only when `confirm` says so.
   */
  async rewind(id: string, mode: RewindMode, confirm?: ConfirmProtectedRestore): Promise<RewindResult> {
    const result: RewindResult = { commands: this.commandsSince(id) };
    if (mode !== 'conversation')
      result.files = await this.deps.undo.rewindTurns(this.sinceSelector(id), confirm);
    if (mode !== 'files') {
      const history = this.deps.conversation.history;
      const at = history.indexOf(id);
      if (at < 0) throw new Error('that message is no longer in the conversation (run /rewind again)');
      result.droppedIds = history.messages
        .slice(at)
        .filter((message) => message.role === 'user')
        .map((message) => message.id);
      result.droppedTurns = result.droppedIds.length;
      history.rewindTo(id);
    }
    return result;
  }

  /** The commands `run_shell` was called with at or after message `id` (none when it is gone). */
  private commandsSince(id: string): string[] {
    const messages = this.deps.conversation.messages;
    const at = this.deps.conversation.history.indexOf(id);
    if (at < 0) return [];
    const commands: string[] = [];
    for (const message of messages.slice(at)) {
      if (message.role !== 'assistant') continue;
      for (const call of message.toolCalls ?? []) {
        if (call.name !== 'run_shell') continue;
        const command = shellCommandOf(call.arguments);
        if (command !== undefined) commands.push(command);
      }
    }
    return commands;
  }

  /**
   * Which turns come at or after message `id`: by the order this session sent them in (so the
   * turns an earlier rewind dropped from the conversation count too, and other sessions' never).
   */
  private sinceSelector(id: string): (turn: string) => boolean {
    const from = this.deps.sessions.sentOrder(id);
    if (from !== undefined) {
      return (turn) => {
        const order = this.deps.sessions.sentOrder(turn);
        return order !== undefined && order >= from;
      };
    }
    const messages = this.deps.conversation.messages;
    const later = new Set(
      messages.slice(Math.max(0, this.deps.conversation.history.indexOf(id))).map((m) => m.id),
    );
    return (turn) => later.has(turn);
  }

  private currentTurn(): string | undefined {
    const messages = this.deps.conversation.messages;
    for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') return messages[i]!.id;
    return undefined;
  }
}

/** What a rewind did, for the person (file names are the undo log's, escaped). */
export function describeRewind(result: RewindResult): string {
  const lines: string[] = [];
  if (result.droppedTurns !== undefined) {
    const turns = `${result.droppedTurns} turn${result.droppedTurns === 1 ? '' : 's'}`;
    lines.push(`conversation rewound: ${turns} dropped (still in the session file)`);
  }
  const files = result.files;
  if (files) {
    const list = (names: string[]) => names.map(visibleLine).join(', ');
    if (
      files.restored.length + files.removed.length + files.changed.length + files.protectedKept.length ===
      0
    )
      lines.push('files: nothing the agent wrote since then to restore');
    if (files.restored.length > 0) lines.push(`files restored: ${list(files.restored)}`);
    if (files.removed.length > 0) lines.push(`files the agent created, removed: ${list(files.removed)}`);
    if (files.changed.length > 0)
      lines.push(`changed since the agent wrote them, not overwritten: ${list(files.changed)}`);
    if (files.protectedKept.length > 0)
      lines.push(`protected, left as they are (you said no): ${list(files.protectedKept)}`);
    if (files.failed.length > 0) lines.push(`could not restore: ${list(files.failed)}`);
    if (files.ignored.length > 0) lines.push(`ignored undo entries outside the root: ${list(files.ignored)}`);
    if (files.mayBeIncomplete)
      lines.push('the undo log keeps the last 50 writes: older writes of these turns could not be restored');
  }
  if (result.commands.length > 0) lines.push(commandsLine(result.commands));
  return lines.join('\n');
}

/**
 * The commands run since the rewind point, which a rewind cannot take back: a few, each on one
 * visible line and cut (the model wrote them), and how many more.
 */
function commandsLine(commands: readonly string[]): string {
  const shown = commands
    .slice(0, COMMANDS_SHOWN)
    .map((command) => `\`${cutTo(compactLine(command), COMMAND_WIDTH)}\``);
  const more = commands.length > COMMANDS_SHOWN ? ` and ${commands.length - COMMANDS_SHOWN} more` : '';
  const what = commands.length === 1 ? 'a command run' : `${commands.length} commands run`;
  return `not undone: ${what} since then (rewind restores only files the agent wrote): ${shown.join(', ')}${more}`;
}

/** run_shell's `command` argument, or undefined when the arguments are not that JSON. */
function shellCommandOf(args: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(args);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const command = (parsed as { command?: unknown }).command;
    return typeof command === 'string' ? command : undefined;
  } catch {
    return undefined;
  }
}
