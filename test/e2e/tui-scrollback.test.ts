/**
 * The transcript on a real terminal (pty, the scripted fake model): answers wrap at word
 * boundaries beside the panel (≥ 90 columns) and at 80×24 without it, a line that fills the width
 * exactly breaks where its space was (no row starts with a stray space); leaving the TUI leaves the
 * conversation in the terminal's scrollback (the live screen is the alternate one), escaped as on
 * screen, above `bye`.
 */
import { describe, expect, it } from 'vitest';
import { KEYS, type PtySession, tuiFixture } from './pty.js';

const fx = tuiFixture({ cols: 100, rows: 30 });

const PROSE =
  'The quick brown fox jumps over the lazy dog while considering extraordinarily complicated ' +
  'international regulations concerning the transportation of unbelievably heavy merchandise ' +
  'across several neighbouring jurisdictions.';
const WORDS = new Set(PROSE.split(' '));

function type(tui: PtySession, text: string): void {
  tui.send(text);
  tui.send(KEYS.enter);
}

/** The transcript's rows of the answer: between the question's line and the turn's summary. */
function answerRows(screen: string): string[] {
  const rows = screen.split('\n').map((row) => row.split('│')[0]!);
  const from = rows.findIndex((row) => row.startsWith('You › tell me'));
  const to = rows.findIndex((row) => row.startsWith('✓ '));
  return rows.slice(from + 1, to);
}

/** Words that fill exactly `width` columns, then more: the line must break where the space was. */
function exactFit(width: number): string {
  return `${'a'.repeat(width - 70)}${' abcdefghi'.repeat(7)} the next line`;
}

/** `width`: the transcript's columns (beside the panel: the screen less the panel's 28). */
async function wrapsWholeWords(cols: number, rows: number, panel: boolean, width: number): Promise<void> {
  const exact = exactFit(width);
  fx.fake.push({ text: `${exact}\n\n${PROSE}\n\n- ${PROSE}\n\n**Note:** ${PROSE} \`code\` ${PROSE}` });
  const tui = fx.start({ cols, rows });
  await tui.waitFor('Type /help');
  type(tui, 'tell me');
  await tui.waitFor(/^✓ /m);
  const screen = tui.screen();
  expect(screen.includes('Model openai')).toBe(panel);
  const shown = answerRows(screen);
  expect(shown.length).toBeGreaterThan(8);
  const words = new Set([...WORDS, ...exact.split(' ')]);
  // The line that fills the width exactly ends there, and the next starts with its first word.
  expect(shown[0]).toBe(exact.slice(0, width));
  expect(shown[1]!.trimEnd()).toBe('the next line');
  for (const row of shown) {
    expect(row.length).toBeLessThanOrEqual(cols);
    // No row starts with a stray space: only a list item's continuation is indented (two).
    expect(row, 'a left edge without stray spaces').toMatch(/^(?:\S| {2}\S|\s*$)/);
    for (const token of row.split(/\s+/).filter((word) => word !== '')) {
      // Every piece on a row is a whole word of the answer (or the list's bullet, the bold label,
      // the code span): a word cut at the edge would leave a piece that is none of these.
      expect(words.has(token) || ['•', 'Note:', 'code'].includes(token), `"${token}" in "${row}"`).toBe(true);
    }
  }
}

describe('the transcript on the terminal', () => {
  it('wraps an answer at word boundaries beside the panel (100 columns)', async () => {
    await wrapsWholeWords(100, 30, true, 72);
  });

  it('wraps an answer at word boundaries at 80×24, where the panel is hidden', async () => {
    await wrapsWholeWords(80, 24, false, 80);
  });

  it('leaving keeps the conversation in the scrollback, escaped, above bye', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `line ${i + 1} of the long answer`).join('\n\n');
    fx.fake.push(
      { text: 'First answer.' },
      { text: long },
      { text: 'Last answer \u001b]0;pwned\u0007 here.' },
    );
    const tui = fx.start({ cols: 80, rows: 24 });
    await tui.waitFor('Type /help');
    type(tui, 'first question');
    await tui.waitFor('First answer.');
    type(tui, 'second question');
    await tui.waitFor('line 40 of the long answer');
    type(tui, 'third question');
    await tui.waitFor('Last answer');
    type(tui, '/exit');
    // The last line out: everything before it is on the screen too.
    await tui.waitFor(/^resume with: geekagent --resume /m);
    expect(await tui.exited()).toBe(0);

    const lines = tui.lines();
    const at = (text: string) => lines.findIndex((line) => line.startsWith(text));
    const order = [
      'GeekAgent — MCP-first terminal agent',
      'You › first question',
      'First answer.',
      'You › second question',
      'line 1 of the long answer',
      'line 40 of the long answer',
      'You › third question',
      'Last answer ^[]0;pwned^G here.',
      'You › /exit',
      'bye',
    ].map(at);
    expect(
      order.every((index) => index >= 0),
      lines.join('\n'),
    ).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // More than a screen: the terminal keeps it above the visible rows.
    expect(lines.length).toBeGreaterThan(24);
    expect(lines.at(-1)).toMatch(/^resume with: geekagent --resume \S+$/);
    // What the model wrote is shown escaped on the normal screen too: it never sets the title.
    const after = tui.output().slice(tui.output().lastIndexOf('\u001b[?1049l'));
    expect(after).not.toContain('\u001b]0;');
    expect(after).not.toContain('Ctrl+');
  });
});
