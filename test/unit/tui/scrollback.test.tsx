/**
 * The transcript's turn marks and what leaving prints: a rewind takes the transcript back to
 * before the first dropped turn (its line and everything after, tool lines and answers
 * included; a turn never sent, or one already off the list, handled); the scrollback text draws
 * entries as on screen, escaped, with no key hints, newest first within its time budget.
 */
import { stripVTControlCharacters } from 'node:util';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { scrollbackText } from '../../../src/tui/components/Scrollback.js';
import { KEEP_ENTRIES, TranscriptStore } from '../../../src/tui/transcript-store.js';
import type { Entry } from '../../../src/tui/types.js';

const texts = (store: TranscriptStore) => store.entries.map((entry) => ('text' in entry ? entry.text : '?'));

/** A turn as the session shows it: its line, the answer, the summary; then its message id. */
function turn(store: TranscriptStore, text: string, messageId: string | undefined): void {
  store.turnLine(text);
  store.modelText(`answer to ${text}`);
  store.line('system', '✓ done');
  if (messageId !== undefined) store.turnMessage(messageId);
}

describe('TranscriptStore turns', () => {
  it('a rewind drops the first dropped turn and everything after it; earlier turns stay', () => {
    const store = new TranscriptStore();
    store.line('title', 'GeekAgent');
    turn(store, 'one', 'm1');
    turn(store, 'two', 'm2');
    store.line('tool', 'run_shell ls');
    turn(store, 'three', 'm3');
    store.line('user', '/rewind');
    expect(store.rewinds).toBe(0);
    expect(store.rewind(['m2', 'm3'])).toBe(true);
    expect(store.rewinds).toBe(1);
    expect(texts(store)).toEqual(['GeekAgent', 'one', 'answer to one', '✓ done']);
    // The dropped marks are gone: the next turn is marked afresh and can be rewound in turn.
    turn(store, 'two again', 'm4');
    expect(store.rewind(['m4'])).toBe(true);
    expect(texts(store)).toEqual(['GeekAgent', 'one', 'answer to one', '✓ done']);
  });

  it('a turn the conversation took back keeps no id: it goes with the turns before it that are dropped', () => {
    const store = new TranscriptStore();
    turn(store, 'one', 'm1');
    // Refused and taken back out: the newest message is still m1, which is another turn's.
    turn(store, 'refused', 'm1');
    turn(store, 'two', 'm2');
    expect(store.rewind(['m2'])).toBe(true);
    expect(texts(store)).toEqual([
      'one',
      'answer to one',
      '✓ done',
      'refused',
      'answer to refused',
      '✓ done',
    ]);
    expect(store.rewind(['m1'])).toBe(true);
    expect(texts(store)).toEqual([]);
  });

  it('recap lines carry their ids; dropping messages nothing on screen shows changes nothing', () => {
    const store = new TranscriptStore();
    store.turnLine('earlier question', 'old');
    store.line('model', 'earlier answer');
    expect(store.rewind(['unknown'])).toBe(false);
    expect(store.entries).toHaveLength(2);
    expect(store.rewind(['old'])).toBe(true);
    expect(store.entries).toHaveLength(0);
  });

  it('a turn whose line was trimmed off the list takes the whole list with it', () => {
    const store = new TranscriptStore();
    turn(store, 'one', 'm1');
    for (let i = 0; i < KEEP_ENTRIES; i++) store.line('system', `line ${i}`);
    expect(store.rewind(['m1'])).toBe(true);
    expect(store.entries).toEqual([]);
    store.line('system', 'after');
    expect(texts(store)).toEqual(['after']);
  });
});

describe('scrollbackText', () => {
  const lexer = (text: string) => marked.lexer(text);
  const entries: Entry[] = [
    { id: 1, kind: 'user', text: 'hello \u001b]0;title\u0007' },
    { id: 2, kind: 'model', text: '**Bold** answer\n\n- item' },
    { id: 3, kind: 'reasoning', text: 'thinking', startedAt: 0, endedAt: 2000, expanded: false },
    { id: 4, kind: 'tool', text: Array.from({ length: 1_200 }, (_, i) => `row ${i}`).join('\n') },
  ];

  it('draws the entries as on screen, escaped, naming no keys; a very long one shows its end', () => {
    const text = stripVTControlCharacters(scrollbackText(entries, { cols: 60, lexer, budgetMs: 60_000 }));
    const lines = text.split('\n');
    expect(lines[0]).toBe('You › hello ^[]0;title^G');
    expect(lines[1]).toBe('Bold answer');
    expect(text).toContain('• item');
    expect(text).toContain('Thought for 2 s');
    expect(text).not.toContain('Ctrl+');
    expect(text).toContain('row 1199');
    expect(text).not.toContain('row 100\n');
    expect(text).toMatch(/row 1199\n↑ 5 KB earlier not shown$/);
    expect(text).toContain('row 700\n');
    expect(text).not.toContain('row 699\n');
  });

  it('draws its minimum of rows whatever the time', () => {
    let clock = 0;
    const now = () => (clock += 10_000);
    const text = stripVTControlCharacters(
      scrollbackText(entries.slice(0, 3), { cols: 60, lexer, now, budgetMs: 500, minRows: 3 }),
    );
    // The reasoning line, then the answer's three rows: the minimum is reached there.
    expect(text.split('\n')[0]).toBe('↑ 1 earlier entry not shown');
    expect(text).toContain('Bold answer');
  });

  it('stops at its time budget, newest first, and counts what it left out', () => {
    let clock = 0;
    // Each entry drawn costs 200 ms on this clock: two fit a 500 ms budget.
    const now = () => {
      const at = clock;
      clock += 200;
      return at;
    };
    const text = stripVTControlCharacters(
      scrollbackText(entries.slice(0, 3), { cols: 60, lexer, now, budgetMs: 500, minRows: 0 }),
    );
    expect(text.split('\n')[0]).toBe('↑ 1 earlier entry not shown');
    expect(text).not.toContain('You › hello');
    expect(text).toContain('Thought for 2 s');
  });
});
