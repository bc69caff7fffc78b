/**
 * The TUI's list picker for commands (`/rewind`): one list at a time, answered by index or
 * dismissed; a cancelled command withdraws its list; the keys (↑/↓ clamp, Enter, Esc, nothing
 * else) and Esc Esc's arming on an empty, idle input line.
 */
import { describe, expect, it } from 'vitest';
import { choiceKey, escapeTwice } from '../../../src/tui/choice-keys.js';
import { TuiChooser } from '../../../src/tui/chooser.js';
import type { KeyEvent } from '../../../src/tui/keys.js';

const key = (name: Extract<KeyEvent, { type: 'key' }>['name']): KeyEvent => ({ type: 'key', name });
const text = (value: string): KeyEvent => ({ type: 'text', text: value, paste: false });

describe('TuiChooser', () => {
  it('shows one list at a time and resolves each with its answer', async () => {
    const chooser = new TuiChooser();
    const signal = new AbortController().signal;
    const first = chooser.ask({ title: 'one', options: ['a', 'b'] }, signal);
    const second = chooser.ask({ title: 'two', options: ['c'] }, signal);
    expect(chooser.current()?.title).toBe('one');
    expect(chooser.answer(1)).toBe(true);
    expect(await first).toBe(1);
    expect(chooser.current()?.title).toBe('two');
    // An index out of range counts as dismissed.
    chooser.answer(5);
    expect(await second).toBeUndefined();
    expect(chooser.answer(0)).toBe(false);
  });

  it('a cancelled command withdraws its list (dismissed)', async () => {
    const chooser = new TuiChooser();
    const abort = new AbortController();
    const asked = chooser.ask({ title: 'one', options: ['a'] }, abort.signal);
    abort.abort();
    expect(await asked).toBeUndefined();
    expect(chooser.current()).toBeUndefined();
  });
});

describe('choice keys', () => {
  it('moves within the list, picks with Enter, dismisses with Esc, ignores typing', () => {
    expect(choiceKey(key('down'), 0, 3)).toEqual({ move: 1 });
    expect(choiceKey(key('down'), 2, 3)).toEqual({ move: 2 });
    expect(choiceKey(key('up'), 0, 3)).toEqual({ move: 0 });
    expect(choiceKey(key('end'), 0, 3)).toEqual({ move: 2 });
    expect(choiceKey(key('enter'), 1, 3)).toEqual({ pick: true });
    expect(choiceKey(key('escape'), 1, 3)).toEqual({ dismiss: true });
    expect(choiceKey(text('y'), 1, 3)).toBeUndefined();
  });

  it('Esc Esc opens only on an empty, idle line, with nothing else in between', () => {
    const first = escapeTwice(key('escape'), false, true);
    expect(first).toEqual({ armed: true, open: false });
    expect(escapeTwice(key('escape'), true, true)).toEqual({ armed: false, open: true });
    expect(escapeTwice(text('x'), true, true)).toEqual({ armed: false, open: false });
    expect(escapeTwice(key('escape'), false, false)).toEqual({ armed: false, open: false });
    expect(escapeTwice(key('escape'), true, false)).toEqual({ armed: false, open: false });
  });
});
