/**
 * Keys while the folder-trust question is on screen. It takes only a deliberate answer: `y`, `n`
 * or Esc as a key of its own, and only with the input line empty — the guard tool approvals have
 * for a question that appears mid-typing (Screen.tsx) — and once the question has been on screen
 * for `TRUST_GUARD_MS`. Keys typed before it was drawn, or in the instant after, stay in the
 * input line (a line sent with Enter waits for the session, which exists only after the answer).
 * Otherwise Tab focuses it: ←/→ choose, Enter confirms, Esc is "not now". Ctrl+T opens the full
 * list in the pager; Ctrl+C / Ctrl+D quit.
 */
import { useEffect, useRef, useState } from 'react';
import type { Choice } from './key-actions.js';
import { CTRL_PAGER, type KeyEvent } from './keys.js';
import type { TrustAnswer, TrustQuestionView } from './types.js';

/** How long the question is on screen before a single key answers it. */
export const TRUST_GUARD_MS = 500;

export interface TrustKeyState {
  /** On screen for `TRUST_GUARD_MS`. */
  ready: boolean;
  focused: boolean;
  /** The focused question's choice: 0 not now (where focus starts), 1 trust. */
  choice: Choice;
}

/** What the question shows: single-key answers, the focused choices, or a hint why neither. */
export type TrustMode = 'keys' | 'focused' | 'typing' | 'waiting';

export function trustMode(state: TrustKeyState, typing: boolean): TrustMode {
  if (state.focused) return 'focused';
  if (typing) return 'typing';
  return state.ready ? 'keys' : 'waiting';
}

export interface TrustKeyContext {
  state: TrustKeyState;
  /** The input line holds text. */
  typing: boolean;
  answer(answer: TrustAnswer): void;
  setState(state: TrustKeyState): void;
  openPager(): void;
}

/** Handles `event` for the trust question; false leaves it to the input line. */
export function trustKey(event: KeyEvent, ctx: TrustKeyContext): boolean {
  const { state } = ctx;
  if (event.type === 'ctrl') {
    if (event.letter === 'c' || event.letter === 'd') ctx.answer('quit');
    else if (event.letter === CTRL_PAGER) ctx.openPager();
    else return state.focused;
    return true;
  }
  if (event.type === 'key' && event.name === 'tab') {
    ctx.setState({ ...state, focused: !state.focused, choice: 0 });
    return true;
  }
  if (state.focused) {
    if (event.type !== 'key') return true;
    if (event.name === 'left' || event.name === 'right')
      ctx.setState({ ...state, choice: state.choice === 0 ? 1 : 0 });
    else if (event.name === 'enter') ctx.answer(state.choice === 1 ? 'trust' : 'not-now');
    else if (event.name === 'escape') ctx.answer('not-now');
    return true;
  }
  if (trustMode(state, ctx.typing) !== 'keys') return false;
  if (event.type === 'key' && event.name === 'escape') {
    ctx.answer('not-now');
    return true;
  }
  // One key on its own: a chunk of typed-ahead text ("yarn install") is typing, not an answer.
  if (event.type === 'text' && !event.paste) {
    if (event.text === 'y' || event.text === 'Y') {
      ctx.answer('trust');
      return true;
    }
    if (event.text === 'n' || event.text === 'N') {
      ctx.answer('not-now');
      return true;
    }
  }
  return false;
}

const START: TrustKeyState = { ready: false, focused: false, choice: 0 };

/**
 * The question's key state, fresh for each question: `get` reads it as the key handler must (one
 * chunk can carry several keys), and it turns `ready` once the question has been drawn for
 * `TRUST_GUARD_MS` (timed from after the frame that shows it).
 */
export function useTrustKeys(view: TrustQuestionView | undefined): {
  get(): TrustKeyState;
  set(state: TrustKeyState): void;
} {
  const held = useRef<{ view: TrustQuestionView; state: TrustKeyState } | undefined>(undefined);
  const [, redraw] = useState(0);
  const get = (): TrustKeyState =>
    view !== undefined && held.current?.view === view ? held.current.state : START;
  const set = (state: TrustKeyState) => {
    if (!view) return;
    held.current = { view, state };
    redraw((n) => n + 1);
  };
  useEffect(() => {
    if (!view) return;
    const timer = setTimeout(() => {
      const state = held.current?.view === view ? held.current.state : START;
      held.current = { view, state: { ...state, ready: true } };
      redraw((n) => n + 1);
    }, TRUST_GUARD_MS);
    return () => clearTimeout(timer);
  }, [view]);
  return { get, set };
}
