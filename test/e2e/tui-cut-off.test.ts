/**
 * A cut answer in the TUI: the text that came stays on screen, and a line under it says it was
 * cut and why (the same sentence print mode writes on stderr).
 */
import { describe, expect, it } from 'vitest';
import { KEYS, tuiFixture } from './pty.js';

const fx = tuiFixture();

describe('the TUI and a cut answer', () => {
  it('keeps the text and shows why it stops there', async () => {
    fx.fake.push({ text: 'Once upon a time, in a small village', finishReason: 'length' });
    const tui = fx.start();
    await tui.waitFor('Type /help for commands.');
    tui.send('tell me a long story');
    tui.send(KEYS.enter);
    await tui.waitFor('the answer was cut off');
    const screen = tui.screen();
    expect(screen).toContain('Once upon a time, in a small village');
    // The line wraps beside the panel: its two halves.
    expect(screen).toContain('the answer was cut off: the model reached its output token limit');
    expect(screen).toContain('(finish_reason: length). The text shown is all that arrived.');
    expect(screen.indexOf('Once upon a time')).toBeLessThan(screen.indexOf('the answer was cut off'));
  });
});
