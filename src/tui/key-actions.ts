/**
 * What each key does: editing keys change the buffer, Enter submits, ↑/↓ walk the history,
 * PgUp/PgDn scroll, Ctrl+O expands the latest reasoning, Ctrl+T opens the pager, Esc / Ctrl+C /
 * Ctrl+D cancel or leave, Tab completes a `/command` name, Shift+Tab cycles the approval mode; with a
 * tool's question open, the key is
 * the answer. A server's own request (sampling, an elicitation form) can appear while the person is
 * typing, so no key typed for the input line answers it: Tab focuses it (and Tab again goes back to
 * the input); a focused question is answered with ←/→ and Enter, a focused form takes the input
 * line; Esc declines/cancels it. Tab otherwise completes an `@` word (completion.ts). The
 * decisions are the session's; this only routes keys to them.
 */
import type { ApprovalAnswer, ApprovalRequest } from '../permissions/types.js';
import type { InputHistory } from './history.js';
import { CTRL_EXPAND, CTRL_PAGER, type KeyEvent } from './keys.js';
import * as edit from './line-editor.js';
import { completeSlash, slashCandidates } from './slash-complete.js';
import type { TrustAnswer } from './types.js';

/** The part of the session keys drive. */
export interface KeyTarget {
  submit(input: string): void;
  /** Answers `question`, the one on screen; a question not yet drawn is never answered blind. */
  answer(answer: ApprovalAnswer, question: ApprovalRequest): void;
  cancel(): void;
  interrupt(): void;
  requestExit(): void;
  /** Enter while an elicitation form is open: the text for its current field. */
  formInput(text: string): void;
  /** Ctrl+O: expands or collapses the latest reasoning block. */
  toggleReasoning?(): void;
  /** Shift+Tab: the next approval mode (absent before the app is up). */
  cycleMode?(): void;
  /** A command's list was answered: the option's index, or undefined (dismissed). */
  choose?(index: number | undefined): void;
  /** Esc Esc on an empty input line while nothing runs: opens `/rewind`. */
  escapeTwice?(): void;
  /** Completions for an `@` word in the input line (files, folders, MCP resources). */
  complete?(word: string): Promise<string[]>;
  /** The folder-trust question's answer (the start's, or one a reload asks). */
  answerTrust?(answer: TrustAnswer): void;
  readonly history: InputHistory;
  /** The command table's names, for Tab completion of a `/name` being typed. */
  commandNames?(): string[];
}

/** A server's request on screen, answered only by an explicit, focused choice. */
export type ServerRequestFocus =
  | { kind: 'question'; question: ApprovalRequest; focused: boolean; choice: Choice }
  | { kind: 'form'; focused: boolean };

/** The focused question's choices: 0 declines (where focus starts), 1 allows. */
export type Choice = 0 | 1;

export interface KeyContext {
  target: KeyTarget;
  /** A tool's question on screen, if any: keys answer it instead of editing. */
  question: ApprovalRequest | undefined;
  /** The question was answered: until the next one is drawn, keys edit the buffer again. */
  answered(): void;
  /** A server's request on screen (sampling question or elicitation form), focused or not. */
  request?: ServerRequestFocus;
  /** Tab: moves the focus between the input line and the server's request. */
  setFocus?(focused: boolean): void;
  /** ←/→ on a focused question. */
  setChoice?(choice: Choice): void;
  /** A focused elicitation form is open: Enter feeds its current field instead of submitting. */
  form: boolean;
  buffer: edit.Buffer;
  setBuffer(buffer: edit.Buffer): void;
  /** Pages the transcript: +1 towards older lines, -1 towards newer, 0 back to the newest. */
  scroll(pages: 1 | -1 | 0): void;
  /** Ctrl+T: opens the newest long entry in the pager. */
  openPager?(): void;
  /** Tab with nothing else to focus: completes the `@` word before the cursor. */
  complete?(): void;
}

export function handleKey(event: KeyEvent, ctx: KeyContext): void {
  if (globalKey(event, ctx)) return;
  const request = ctx.request;
  if (request && event.type === 'key' && event.name === 'tab') {
    ctx.setFocus?.(!request.focused);
    return;
  }
  if (request?.kind === 'question' && request.focused) {
    choiceKey(event, request, ctx);
    return;
  }
  if (ctx.question) {
    ctx.target.answer(answerFor(event), ctx.question);
    ctx.answered();
    return;
  }
  if (event.type === 'key' && event.name === 'tab' && !ctx.form) {
    // A `/name` being typed completes from the command table; else the `@` word before the cursor.
    const names = ctx.target.commandNames?.() ?? [];
    if (slashCandidates(ctx.buffer.text, names).length > 0) {
      const completed = completeSlash(ctx.buffer, names);
      if (completed) ctx.setBuffer(completed);
    } else ctx.complete?.();
    return;
  }
  if (event.type === 'text') {
    ctx.setBuffer(edit.insert(ctx.buffer, event.text));
  } else if (event.type === 'ctrl') {
    ctrlKey(event.letter, ctx);
  } else {
    namedKey(event.name, ctx);
  }
}

/** Keys that mean the same with or without a question open. */
function globalKey(event: KeyEvent, ctx: KeyContext): boolean {
  if (event.type === 'ctrl' && event.letter === 'c') ctx.target.interrupt();
  else if (event.type === 'ctrl' && event.letter === 'd') ctx.target.requestExit();
  else if (event.type === 'ctrl' && event.letter === CTRL_EXPAND) ctx.target.toggleReasoning?.();
  else if (event.type === 'ctrl' && event.letter === CTRL_PAGER) ctx.openPager?.();
  else if (event.type === 'key' && event.name === 'escape') ctx.target.cancel();
  // Never an answer: switching modes does not decide the question on screen.
  else if (event.type === 'key' && event.name === 'backTab') ctx.target.cycleMode?.();
  else if (event.type === 'key' && event.name === 'pageUp') ctx.scroll(1);
  else if (event.type === 'key' && event.name === 'pageDown') ctx.scroll(-1);
  else return false;
  return true;
}

/** ←/→ move between Decline and Allow, Enter picks; nothing else answers. */
function choiceKey(
  event: KeyEvent,
  request: Extract<ServerRequestFocus, { kind: 'question' }>,
  ctx: KeyContext,
): void {
  if (event.type !== 'key') return;
  if (event.name === 'left' || event.name === 'right') {
    ctx.setChoice?.(request.choice === 0 ? 1 : 0);
  } else if (event.name === 'enter') {
    ctx.target.answer(request.choice === 1 ? 'yes' : 'no', request.question);
    ctx.answered();
  }
}

/** `y` once, `a` always, anything else no — the safe reading of a stray key. */
export function answerFor(event: KeyEvent): ApprovalAnswer {
  if (event.type !== 'text') return 'no';
  const text = event.text.trim().toLowerCase();
  if (text === 'y' || text === 'yes') return 'yes';
  if (text === 'a' || text === 'always') return 'always';
  return 'no';
}

function ctrlKey(letter: string, ctx: KeyContext): void {
  const { buffer, setBuffer } = ctx;
  if (letter === 'a') setBuffer(edit.home(buffer));
  else if (letter === 'e') setBuffer(edit.end(buffer));
  else if (letter === 'u') setBuffer(edit.killToStart(buffer));
  else if (letter === 'k') setBuffer(edit.killToEnd(buffer));
  else if (letter === 'w') setBuffer(edit.deleteWordBack(buffer));
  else if (letter === 'b') setBuffer(edit.left(buffer));
  else if (letter === 'f') setBuffer(edit.right(buffer));
}

function namedKey(name: Exclude<KeyEvent, { type: 'text' | 'ctrl' }>['name'], ctx: KeyContext): void {
  const { buffer, setBuffer, target } = ctx;
  if (name === 'enter' && ctx.form) {
    setBuffer(edit.EMPTY);
    target.formInput(buffer.text);
    return;
  }
  if (name === 'enter') {
    if (buffer.text.trim() === '') return;
    setBuffer(edit.EMPTY);
    ctx.scroll(0);
    target.submit(buffer.text);
    return;
  }
  const next =
    name === 'up'
      ? historyBuffer(target.history.previous(buffer.text))
      : name === 'down'
        ? historyBuffer(target.history.next())
        : editKey(name, buffer);
  if (next) setBuffer(next);
}

function historyBuffer(entry: string | undefined): edit.Buffer | undefined {
  return entry === undefined ? undefined : edit.fromText(entry);
}

function editKey(name: string, buffer: edit.Buffer): edit.Buffer | undefined {
  switch (name) {
    case 'newline':
      return edit.insert(buffer, '\n');
    case 'backspace':
      return edit.backspace(buffer);
    case 'delete':
      return edit.deleteForward(buffer);
    case 'wordBack':
      return edit.deleteWordBack(buffer);
    case 'left':
      return edit.left(buffer);
    case 'right':
      return edit.right(buffer);
    case 'home':
      return edit.home(buffer);
    case 'end':
      return edit.end(buffer);
    default:
      return undefined;
  }
}
