/**
 * Turns raw terminal input — chunks as they are read from stdin, in any split — into key events.
 * Done here rather than with Ink's `useInput` because Ink reports Backspace (DEL) and Delete
 * (ESC[3~) as the same key and splits a paste into keypresses. The decoder cuts each chunk into
 * escape sequences, control characters and text runs; pastes (bracketed, or a run with a newline
 * inside it) become one `text` event, never a submit. `raw-input.ts` feeds it.
 */

export type KeyName =
  | 'enter'
  | 'newline'
  | 'backspace'
  | 'delete'
  | 'left'
  | 'right'
  | 'up'
  | 'down'
  | 'home'
  | 'end'
  | 'pageUp'
  | 'pageDown'
  | 'escape'
  | 'tab'
  /** Shift+Tab (`ESC [ Z`): cycles the approval mode. */
  | 'backTab'
  | 'wordBack';

/** Ctrl+O: expands or collapses the latest reasoning block. */
export const CTRL_EXPAND = 'o';
/** Ctrl+T: opens the newest long entry (answer, tool output) in the pager. */
export const CTRL_PAGER = 't';

export type KeyEvent =
  | { type: 'text'; text: string; paste: boolean }
  | { type: 'key'; name: KeyName }
  /** Ctrl+letter, e.g. `c`, `d`, `a`, `e`, `u`, `w`, `k`. */
  | { type: 'ctrl'; letter: string };

const PASTE_START = '\u001b[200~';
const PASTE_END = '\u001b[201~';

const SEQUENCES: Record<string, KeyName> = {
  '\r': 'enter',
  '\n': 'newline',
  '\u001b\r': 'newline',
  '\u007f': 'backspace',
  '\b': 'backspace',
  '\u001b\u007f': 'wordBack',
  '\u001b\b': 'wordBack',
  '\u001b[3~': 'delete',
  '\u001b': 'escape',
  '\u001b\u001b': 'escape',
  '\t': 'tab',
  '\u001b[Z': 'backTab',
  '\u001b[5~': 'pageUp',
  '\u001b[6~': 'pageDown',
  '\u001b[1~': 'home',
  '\u001b[7~': 'home',
  '\u001b[4~': 'end',
  '\u001b[8~': 'end',
};

// CSI / SS3 final letters, with or without a modifier (`ESC[1;5D` is Ctrl+←, read as ←).
const FINALS: Record<string, KeyName> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end' };

const ESC = '\u001b';

/**
 * Holds what one input stream left unfinished: an escape sequence cut by a read, or a bracketed
 * paste in progress. One decoder per input stream.
 */
export class KeyDecoder {
  private paste: string[] | undefined;
  private pending = '';

  decode(chunk: string): KeyEvent[] {
    const data = this.pending + chunk;
    this.pending = '';
    const out: KeyEvent[] = [];
    let at = 0;
    while (at < data.length) {
      if (this.paste) {
        const endAt = data.indexOf(PASTE_END, at);
        if (endAt < 0) {
          // The end marker may be cut by the read: keep what could be its start for the next chunk.
          const keep = partialMarker(data, PASTE_END);
          this.paste.push(data.slice(at, data.length - keep));
          this.pending = data.slice(data.length - keep);
          return out;
        }
        const text = this.paste.join('') + data.slice(at, endAt);
        this.paste = undefined;
        if (text !== '') out.push({ type: 'text', text: normaliseNewlines(text), paste: true });
        at = endAt + PASTE_END.length;
        continue;
      }
      if (data[at] === ESC) {
        const length = escapeLength(data, at);
        if (length < 0) {
          this.pending = data.slice(at);
          return out;
        }
        const sequence = data.slice(at, at + length);
        if (sequence === PASTE_START) this.paste = [];
        else out.push(...decodeSequence(sequence));
        at += length;
        continue;
      }
      const next = data.indexOf(ESC, at);
      const end = next < 0 ? data.length : next;
      out.push(...decodeRun(data.slice(at, end)));
      at = end;
    }
    return out;
  }
}

/**
 * How long the escape sequence at `at` is: CSI (`ESC [` params final), SS3 (`ESC O x`), or ESC
 * with one more character (Alt+key); -1 when the chunk ends inside a CSI or SS3 sequence. A lone
 * ESC at the end of a chunk is the Escape key: terminals send a whole sequence in one write.
 */
function escapeLength(data: string, at: number): number {
  const second = data[at + 1];
  if (second === undefined) return 1;
  if (second === 'O') return at + 2 < data.length ? 3 : -1;
  if (second !== '[') return 2;
  for (let i = at + 2; i < data.length; i++) {
    const code = data.charCodeAt(i);
    if (code >= 0x40 && code <= 0x7e) return i - at + 1;
    if (code < 0x20 || code > 0x3f) return i - at; // not a CSI after all: stop before the odd byte
  }
  return -1;
}

/** How many characters at the end of `data` are the start of `marker`. */
function partialMarker(data: string, marker: string): number {
  for (let length = Math.min(marker.length - 1, data.length); length > 0; length--) {
    if (data.endsWith(marker.slice(0, length))) return length;
  }
  return 0;
}

/**
 * A run without ESC: control keys (Ctrl+letter, Backspace) stand alone; the text between them is
 * typed text, a typed line with its Enter, or a pasted block.
 */
function decodeRun(run: string): KeyEvent[] {
  const out: KeyEvent[] = [];
  let start = 0;
  for (let i = 0; i < run.length; i++) {
    const char = run[i]!;
    if (char === '\r' || char === '\n' || char === '\t' || !isControl(char)) continue;
    if (i > start) out.push(...decodeSequence(run.slice(start, i)));
    out.push(...decodeSequence(char));
    start = i + 1;
  }
  if (start < run.length) out.push(...decodeSequence(run.slice(start)));
  return out;
}

function decodeSequence(sequence: string): KeyEvent[] {
  const named = SEQUENCES[sequence];
  if (named) return [{ type: 'key', name: named }];
  const arrow = arrowLike(sequence);
  if (arrow) return [{ type: 'key', name: arrow }];
  if (sequence.startsWith('\u001b')) return [];
  if (sequence.length === 1 && sequence < ' ') {
    return [{ type: 'ctrl', letter: String.fromCharCode(sequence.charCodeAt(0) + 96) }];
  }
  // Without bracketed paste, a paste is a chunk of several characters. One line ending in Enter
  // was typed faster than it was read: text, then submit. Newlines inside mean a pasted block.
  const body = sequence.replace(/\r?\n$|\r$/, '');
  if (body !== sequence && !/[\r\n]/.test(body)) {
    return [...textEvents(body, false), { type: 'key', name: 'enter' }];
  }
  // The same for Tab (completion): a word typed fast, then Tab, is the word and the key.
  if (/^[^\r\n\t]+\t$/.test(sequence))
    return [...textEvents(sequence.slice(0, -1), false), { type: 'key', name: 'tab' }];
  const paste = /[\r\n]/.test(sequence);
  return textEvents(paste ? normaliseNewlines(sequence) : sequence, paste);
}

/** `ESC[A`, `ESCOA`, `ESC[1;5A` (modifiers ignored) and the like, for arrows, Home and End. */
function arrowLike(sequence: string): KeyName | undefined {
  if (!sequence.startsWith('\u001b')) return undefined;
  const body = sequence.slice(1);
  if (!/^(?:\[(?:1;\d+)?|O)[ABCDHF]$/.test(body)) return undefined;
  return FINALS[body.slice(-1)];
}

function textEvents(text: string, paste: boolean): KeyEvent[] {
  // Control characters other than newline and tab would corrupt the screen; drop them.
  const clean = [...text].filter((char) => char === '\n' || char === '\t' || !isControl(char)).join('');
  return clean === '' ? [] : [{ type: 'text', text: clean, paste }];
}

function isControl(char: string): boolean {
  const code = char.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
}

function normaliseNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}
