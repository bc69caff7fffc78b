/**
 * The input buffer as a value: text plus cursor, and the editing operations on it. Pure functions,
 * so every key's effect is testable without a terminal.
 */

export interface Buffer {
  text: string;
  /** Index into `text`, 0 … text.length. */
  cursor: number;
}

export const EMPTY: Buffer = { text: '', cursor: 0 };

export function fromText(text: string): Buffer {
  return { text, cursor: text.length };
}

export function insert(buffer: Buffer, text: string): Buffer {
  const { text: t, cursor } = buffer;
  return { text: t.slice(0, cursor) + text + t.slice(cursor), cursor: cursor + text.length };
}

export function backspace(buffer: Buffer): Buffer {
  if (buffer.cursor === 0) return buffer;
  const start = previousCharStart(buffer.text, buffer.cursor);
  return { text: buffer.text.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start };
}

export function deleteForward(buffer: Buffer): Buffer {
  if (buffer.cursor >= buffer.text.length) return buffer;
  const end = nextCharEnd(buffer.text, buffer.cursor);
  return { text: buffer.text.slice(0, buffer.cursor) + buffer.text.slice(end), cursor: buffer.cursor };
}

export function left(buffer: Buffer): Buffer {
  return { ...buffer, cursor: buffer.cursor === 0 ? 0 : previousCharStart(buffer.text, buffer.cursor) };
}

export function right(buffer: Buffer): Buffer {
  return { ...buffer, cursor: nextCharEnd(buffer.text, buffer.cursor) };
}

/** Home / Ctrl+A: start of the current line (multi-line buffers keep their other lines). */
export function home(buffer: Buffer): Buffer {
  return { ...buffer, cursor: buffer.text.lastIndexOf('\n', buffer.cursor - 1) + 1 };
}

/** End / Ctrl+E: end of the current line. */
export function end(buffer: Buffer): Buffer {
  const newline = buffer.text.indexOf('\n', buffer.cursor);
  return { ...buffer, cursor: newline < 0 ? buffer.text.length : newline };
}

/** Ctrl+U: delete from the start of the line to the cursor. */
export function killToStart(buffer: Buffer): Buffer {
  const start = home(buffer).cursor;
  return { text: buffer.text.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start };
}

/** Ctrl+K: delete from the cursor to the end of the line. */
export function killToEnd(buffer: Buffer): Buffer {
  const stop = end(buffer).cursor;
  return { text: buffer.text.slice(0, buffer.cursor) + buffer.text.slice(stop), cursor: buffer.cursor };
}

/** Ctrl+W: delete the word before the cursor, and the spaces after it. */
export function deleteWordBack(buffer: Buffer): Buffer {
  const before = buffer.text.slice(0, buffer.cursor);
  const start = before.replace(/[^\s]*\s*$/, '').length;
  return { text: buffer.text.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start };
}

// Step over surrogate pairs as one character, so an emoji is never split in half.
function previousCharStart(text: string, cursor: number): number {
  const code = text.charCodeAt(cursor - 1);
  return cursor >= 2 && code >= 0xdc00 && code <= 0xdfff ? cursor - 2 : cursor - 1;
}

function nextCharEnd(text: string, cursor: number): number {
  if (cursor >= text.length) return text.length;
  const code = text.charCodeAt(cursor);
  return code >= 0xd800 && code <= 0xdbff && cursor + 1 < text.length ? cursor + 2 : cursor + 1;
}
