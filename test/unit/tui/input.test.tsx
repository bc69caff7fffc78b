/**
 * The input line: typing and editing keys, Enter, multi-line paste, history across runs, and the
 * key decoder that tells Backspace from Delete.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Screen } from '../../../src/tui/components/Screen.js';
import { HISTORY_LIMIT, InputHistory } from '../../../src/tui/history.js';
import { KeyDecoder } from '../../../src/tui/keys.js';
import * as edit from '../../../src/tui/line-editor.js';
import { plain, recordingTarget, snapshot } from './helpers.js';

const rendered: Array<{ unmount(): void }> = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const instance of rendered.splice(0)) instance.unmount();
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function screen(history = new InputHistory(undefined)) {
  const target = recordingTarget(history);
  const instance = render(<Screen snapshot={snapshot()} target={target} cols={80} rows={12} />);
  rendered.push(instance);
  const type = (...chunks: string[]) => {
    for (const chunk of chunks) instance.stdin.write(chunk);
  };
  const input = () =>
    plain(instance.lastFrame()).split('─'.repeat(80))[1]?.replace(/^\n/, '').trimEnd() ?? '';
  // Ink redraws after React commits the update, which is not synchronous: wait for the frame.
  const shows = (text: string) => vi.waitFor(() => expect(input()).toBe(text));
  return { target, type, shows };
}

describe('typing into the input line', () => {
  it('inserts text, edits with the keys, and submits on Enter', async () => {
    const { target, type, shows } = screen();
    type('h', 'e', 'l', 'o');
    type('\u001b[D', 'l'); // ← then l
    await shows('› hello');
    type('\u0001', '>'); // Ctrl+A, insert at the start
    type('\u0005', '!'); // Ctrl+E, append
    await shows('› >hello!');
    type('\u007f'); // Backspace deletes before the cursor
    type('\u001b[H', '\u001b[3~'); // Home, Delete removes after it
    await shows('› hello');
    type('\r');
    expect(target.submitted).toEqual(['hello']);
    await shows('›');
  });

  it('Ctrl+W deletes a word, Ctrl+U the line', async () => {
    const { type, shows } = screen();
    type('say hello world');
    type('\u0017');
    await shows('› say hello');
    type('\u0015');
    await shows('›');
  });

  it('keeps a pasted block in the buffer (bracketed or not) and submits it whole', async () => {
    const { target, type, shows } = screen();
    type('\u001b[200~line one\rline two\u001b[201~');
    await shows('› line one\n  line two');
    type(' and\nthree');
    expect(target.submitted).toEqual([]);
    type('\r');
    expect(target.submitted).toEqual(['line one\nline two and\nthree']);
  });

  it('does not submit an empty line', () => {
    const { target, type } = screen();
    type('\r', '   ', '\r');
    expect(target.submitted).toEqual([]);
  });

  it('↑/↓ walk the history and come back to the draft', async () => {
    const history = new InputHistory(undefined);
    await history.add('first');
    await history.add('second');
    const { type, shows } = screen(history);
    type('draft');
    type('\u001b[A');
    await shows('› second');
    type('\u001b[A', '\u001b[A');
    await shows('› first');
    type('\u001b[B', '\u001b[B');
    await shows('› draft');
  });

  it('Ctrl+C and Ctrl+D go to the session', () => {
    const { target, type } = screen();
    type('\u0003', '\u0004');
    expect(target.calls).toEqual(['interrupt', 'exit']);
  });
});

describe('InputHistory', () => {
  async function tempFile() {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'geekagent-history-'));
    dirs.push(dir);
    return path.join(dir, '.geekagent', 'history');
  }

  it('survives a restart, multi-line entries included, one JSON string per line', async () => {
    const file = await tempFile();
    const first = new InputHistory(file);
    await first.load();
    await first.add('/help');
    await first.add('two\nlines');
    expect(await readFile(file, 'utf8')).toBe('"/help"\n"two\\nlines"\n');
    const second = new InputHistory(file);
    await second.load();
    expect(second.previous('')).toBe('two\nlines');
    expect(second.previous('')).toBe('/help');
    expect(second.previous('')).toBeUndefined();
  });

  it('keeps the newest entries up to the cap, and skips repeats', async () => {
    const history = new InputHistory(undefined);
    await history.add('same');
    await history.add('same');
    expect(history.all).toEqual(['same']);
    for (let i = 0; i < HISTORY_LIMIT + 20; i++) await history.add(`entry ${i}`);
    expect(history.all).toHaveLength(HISTORY_LIMIT);
    expect(history.all.at(-1)).toBe(`entry ${HISTORY_LIMIT + 19}`);
  });

  it('reads a hand-written line as an entry and a missing file as empty', async () => {
    const file = await tempFile();
    const missing = new InputHistory(file);
    await missing.load();
    expect(missing.all).toEqual([]);
    await writeFile(path.join(path.dirname(file), '..', 'history'), 'plain text\n');
    const plainFile = new InputHistory(path.join(path.dirname(file), '..', 'history'));
    await plainFile.load();
    expect(plainFile.all).toEqual(['plain text']);
  });
});

describe('KeyDecoder', () => {
  const decode = (...chunks: string[]) => {
    const decoder = new KeyDecoder();
    return chunks.flatMap((chunk) => decoder.decode(chunk));
  };

  it('tells Backspace (DEL) from Delete (ESC[3~)', () => {
    expect(decode('\u007f', '\u001b[3~')).toEqual([
      { type: 'key', name: 'backspace' },
      { type: 'key', name: 'delete' },
    ]);
  });

  it('reads a typed line that arrived with its Enter as text then submit', () => {
    expect(decode('hello\r')).toEqual([
      { type: 'text', text: 'hello', paste: false },
      { type: 'key', name: 'enter' },
    ]);
    expect(decode('hi\n')).toEqual([
      { type: 'text', text: 'hi', paste: false },
      { type: 'key', name: 'enter' },
    ]);
  });

  it('reads a chunk with newlines inside as a paste, bracketed or not', () => {
    expect(decode('a\r\nb\r')).toEqual([{ type: 'text', text: 'a\nb\n', paste: true }]);
    expect(decode('\u001b[200~', 'x\ry', '\u001b[201~')).toEqual([
      { type: 'text', text: 'x\ny', paste: true },
    ]);
  });

  it('names arrows with modifiers, Home/End, paging and Ctrl letters', () => {
    expect(decode('\u001b[1;5D', '\u001bOH', '\u001b[4~', '\u001b[5~', '\u0017')).toEqual([
      { type: 'key', name: 'left' },
      { type: 'key', name: 'home' },
      { type: 'key', name: 'end' },
      { type: 'key', name: 'pageUp' },
      { type: 'ctrl', letter: 'w' },
    ]);
  });
});

describe('KeyDecoder on raw reads (no parser before it)', () => {
  const decode = (...chunks: string[]) => {
    const decoder = new KeyDecoder();
    return chunks.flatMap((chunk) => decoder.decode(chunk));
  };

  it('cuts one read into its keys: text, escape sequences and control keys', () => {
    expect(decode('ab\u001b[Dc\u0003\u007f\u001b[3~\r')).toEqual([
      { type: 'text', text: 'ab', paste: false },
      { type: 'key', name: 'left' },
      { type: 'text', text: 'c', paste: false },
      { type: 'ctrl', letter: 'c' },
      { type: 'key', name: 'backspace' },
      { type: 'key', name: 'delete' },
      { type: 'key', name: 'enter' },
    ]);
  });

  it('joins an escape sequence cut by a read', () => {
    expect(decode('\u001b[', '1;5', 'C')).toEqual([{ type: 'key', name: 'right' }]);
  });

  it('keeps a bracketed paste whole across any split, markers included', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n');
    const wire = `\u001b[200~${lines}\u001b[201~x`;
    const chunks: string[] = [];
    for (let at = 0; at < wire.length; at += 97) chunks.push(wire.slice(at, at + 97));
    expect(decode(...chunks)).toEqual([
      { type: 'text', text: lines, paste: true },
      { type: 'text', text: 'x', paste: false },
    ]);
    // The end marker cut right after its ESC.
    expect(decode('\u001b[200~a\u001b', '[201~')).toEqual([{ type: 'text', text: 'a', paste: true }]);
  });
});

describe('line editor', () => {
  it('moves by whole characters, never splitting an emoji', () => {
    const buffer = edit.fromText('a😀');
    expect(edit.backspace(buffer)).toEqual({ text: 'a', cursor: 1 });
    expect(edit.left(buffer).cursor).toBe(1);
  });

  it('Home and End stay on the current line of a multi-line buffer', () => {
    const buffer = { text: 'one\ntwo', cursor: 5 };
    expect(edit.home(buffer).cursor).toBe(4);
    expect(edit.end(buffer).cursor).toBe(7);
    expect(edit.killToStart(buffer)).toEqual({ text: 'one\nwo', cursor: 4 });
  });
});
