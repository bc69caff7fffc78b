/**
 * Turns the raw input sequences Ink's parser emits into key events. Done here rather than with
 * `useInput` because Ink reports Backspace (DEL) and Delete (ESC[3~) as the same key.
 * Pastes (bracketed, or a chunk with a newline inside it) become one `text` event, never a submit.
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
  | 'wordBack';

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
  '\u001b[5~': 'pageUp',
  '\u001b[6~': 'pageDown',
  '\u001b[1~': 'home',
  '\u001b[7~': 'home',
  '\u001b[4~': 'end',
  '\u001b[8~': 'end',
};

// CSI / SS3 final letters, with or without a modifier (`ESC[1;5D` is Ctrl+←, read as ←).
const FINALS: Record<string, KeyName> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end' };

/** Holds whether a bracketed paste is in progress; one decoder per input stream. */
export class KeyDecoder {
  private paste: string[] | undefined;

  decode(sequence: string): KeyEvent[] {
    if (sequence === PASTE_START) {
      this.paste = [];
      return [];
    }
    if (this.paste) {
      const endAt = sequence.indexOf(PASTE_END);
      if (endAt < 0) {
        this.paste.push(sequence);
        return [];
      }
      const text = this.paste.join('') + sequence.slice(0, endAt);
      this.paste = undefined;
      return text === '' ? [] : [{ type: 'text', text: normaliseNewlines(text), paste: true }];
    }
    return decodeSequence(sequence);
  }
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
