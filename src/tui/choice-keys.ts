/**
 * Keys while a command's list is on screen (chooser.ts): ↑/↓ move (Home/End, PgUp/PgDn jump),
 * Enter picks, Esc dismisses; anything else is ignored, so typing ahead cannot pick a line. Also
 * the input line's Esc Esc: pressed twice on an empty line while nothing runs, it opens `/rewind`.
 */
import { useRef, useState } from 'react';
import type { ChoiceView } from './chooser.js';
import type { KeyTarget } from './key-actions.js';
import type { KeyEvent } from './keys.js';

export type ChoiceKey = { move: number } | { pick: true } | { dismiss: true } | undefined;

/** What a key does to a list of `count` options with `selected` highlighted. */
export function choiceKey(event: KeyEvent, selected: number, count: number): ChoiceKey {
  if (event.type !== 'key') return undefined;
  const to = (index: number) => ({ move: Math.max(0, Math.min(count - 1, index)) });
  switch (event.name) {
    case 'up':
      return to(selected - 1);
    case 'down':
      return to(selected + 1);
    case 'pageUp':
    case 'home':
      return to(0);
    case 'pageDown':
    case 'end':
      return to(count - 1);
    case 'enter':
      return { pick: true };
    case 'escape':
      return { dismiss: true };
    default:
      return undefined;
  }
}

/**
 * Esc Esc: whether this key opens the rewind picker. `armed` is true after a first Esc on an empty,
 * idle input line; any other key disarms it. Returns the new armed state and whether to open.
 */
export function escapeTwice(
  event: KeyEvent,
  armed: boolean,
  idleAndEmpty: boolean,
): { armed: boolean; open: boolean } {
  const isEscape = event.type === 'key' && event.name === 'escape';
  if (!isEscape || !idleAndEmpty) return { armed: false, open: false };
  return armed ? { armed: false, open: true } : { armed: true, open: false };
}

/**
 * The open list's highlighted line and its keys, for the screen: `key` takes a key when a list is
 * open (not Ctrl+C / Ctrl+D, which still cancel or leave) and returns whether it did.
 */
export function useChoiceList(
  choice: ChoiceView | undefined,
  target: Pick<KeyTarget, 'choose'>,
): { selected: number; key(event: KeyEvent): boolean } {
  const [at, setAt] = useState<{ id: number; index: number } | undefined>(undefined);
  const selected = choice && at?.id === choice.id ? at.index : 0;
  // A ref as well: one input chunk can carry several keys, each must see the one before.
  const latest = useRef({ choice, selected });
  latest.current = { choice, selected };
  const key = (event: KeyEvent): boolean => {
    const list = latest.current.choice;
    if (!list || (event.type === 'ctrl' && (event.letter === 'c' || event.letter === 'd'))) return false;
    const action = choiceKey(event, latest.current.selected, list.options.length);
    if (action === undefined) return true;
    if ('move' in action) {
      latest.current.selected = action.move;
      setAt({ id: list.id, index: action.move });
    } else {
      latest.current.choice = undefined;
      target.choose?.('pick' in action ? latest.current.selected : undefined);
    }
    return true;
  };
  return { selected, key };
}

/** Esc Esc for the screen: whether the first Esc is armed (the rule says so), and the key check. */
export function useEscapeTwice(target: Pick<KeyTarget, 'escapeTwice'>): {
  armed: boolean;
  key(event: KeyEvent, idleAndEmpty: boolean): boolean;
} {
  const [armed, setArmed] = useState(false);
  const latest = useRef(false);
  const key = (event: KeyEvent, idleAndEmpty: boolean): boolean => {
    const next = escapeTwice(event, latest.current, idleAndEmpty);
    if (next.armed !== latest.current) {
      latest.current = next.armed;
      setArmed(next.armed);
    }
    if (next.open) target.escapeTwice?.();
    return next.open;
  };
  return { armed, key };
}
