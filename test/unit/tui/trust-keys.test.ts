import { describe, expect, it } from 'vitest';
import { SessionFront } from '../../../src/tui/front.js';
import { InputHistory } from '../../../src/tui/history.js';
import type { KeyEvent } from '../../../src/tui/keys.js';
import { type TrustKeyState, trustKey } from '../../../src/tui/trust-keys.js';
import type { TrustAnswer } from '../../../src/tui/types.js';

const text = (value: string, paste = false): KeyEvent => ({ type: 'text', text: value, paste });
const key = (name: Extract<KeyEvent, { type: 'key' }>['name']): KeyEvent => ({ type: 'key', name });

function press(event: KeyEvent, state: TrustKeyState, typing = false) {
  const answers: TrustAnswer[] = [];
  let next = state;
  const handled = trustKey(event, {
    state,
    typing,
    answer: (answer) => answers.push(answer),
    setState: (changed) => {
      next = changed;
    },
    openPager: () => answers.push('pager' as TrustAnswer),
  });
  return { handled, answers, next };
}

const READY: TrustKeyState = { ready: true, focused: false, choice: 0 };

describe('the trust question keys', () => {
  it('y and n answer only as keys of their own, once ready and with the input line empty', () => {
    expect(press(text('y'), READY).answers).toEqual(['trust']);
    expect(press(text('n'), READY).answers).toEqual(['not-now']);
    expect(press(key('escape'), READY).answers).toEqual(['not-now']);
    // Typed ahead: a chunk, a paste, too early, or with text in the input line is typing.
    for (const [event, state, typing] of [
      [text('yarn install'), READY, false],
      [text('y', true), READY, false],
      [text('y'), { ...READY, ready: false }, false],
      [text('y'), READY, true],
    ] as const) {
      const result = press(event, state, typing);
      expect(result).toMatchObject({ handled: false, answers: [] });
    }
  });

  it('Tab focuses it: ←/→ choose (not now first), Enter confirms, other keys do nothing', () => {
    const focused = press(key('tab'), { ...READY, ready: false }, true).next;
    expect(focused).toMatchObject({ focused: true, choice: 0 });
    expect(press(text('y'), focused)).toMatchObject({ handled: true, answers: [] });
    expect(press(key('enter'), focused).answers).toEqual(['not-now']);
    const onTrust = press(key('right'), focused).next;
    expect(press(key('enter'), onTrust).answers).toEqual(['trust']);
  });

  it('Ctrl+C and Ctrl+D quit, Ctrl+T opens the full list', () => {
    expect(press({ type: 'ctrl', letter: 'c' }, READY, true).answers).toEqual(['quit']);
    expect(press({ type: 'ctrl', letter: 'd' }, READY).answers).toEqual(['quit']);
    expect(press({ type: 'ctrl', letter: 't' }, READY).answers).toEqual(['pager']);
    expect(press({ type: 'ctrl', letter: 'a' }, READY, true).handled).toBe(false);
  });
});

describe('the start-up front asking the trust question', () => {
  it('shows it until answered; lines sent meanwhile stay queued; leaving answers quit', async () => {
    const front = new SessionFront(new InputHistory(undefined));
    const trust = {
      state: 'untrusted' as const,
      declarations: { projectDir: '/p', folder: '/p', items: [] },
    };
    front.submit('yarn install');
    const asked = front.askTrust(trust);
    expect(front.snapshot().trust?.trust).toBe(trust);
    expect(front.snapshot().queued).toEqual(['yarn install']);
    front.answerTrust('not-now');
    expect(await asked).toBe('not-now');
    expect(front.snapshot().trust).toBeUndefined();

    const again = front.askTrust(trust);
    front.requestExit();
    expect(await again).toBe('quit');
  });
});
