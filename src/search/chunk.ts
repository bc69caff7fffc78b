/**
 * Splits text into overlapping chunks for indexing (memory: 320/80, knowledge base: 800/80).
 * Sizes are in characters (UTF-16 code units, never cutting a surrogate pair). A chunk ends at the
 * last newline in its second half if there is one, else at the last whitespace there, else at the
 * size; the next chunk starts `overlap` characters before the end, moved forward to a word start.
 * Leading and trailing whitespace is left out of a chunk, and each chunk knows its first and last
 * line (1-based) for `source:line` citations.
 */

export interface TextChunk {
  text: string;
  /** Offset of the chunk's first character in the whole text. */
  start: number;
  /** Offset just past its last character. */
  end: number;
  /** 1-based line of `start`. */
  line: number;
  /** 1-based line of its last character. */
  endLine: number;
}

export const MEMORY_CHUNK = { size: 320, overlap: 80 } as const;
export const RAG_CHUNK = { size: 800, overlap: 80 } as const;

const isSpace = (code: number) =>
  code === 32 || code === 10 || code === 13 || code === 9 || code === 12 || code === 11 || code === 0xa0;
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

export function chunkText(text: string, size: number, overlap: number): TextChunk[] {
  if (!(Number.isInteger(size) && size >= 1)) throw new RangeError('chunk size must be a whole number ≥ 1');
  if (!(Number.isInteger(overlap) && overlap >= 0 && overlap < size)) {
    throw new RangeError('chunk overlap must be a whole number ≥ 0 and below the size');
  }
  const chunks: TextChunk[] = [];
  const length = text.length;
  // Line counting walks forward only: (pos, line) is the line of offset `pos`.
  let pos = 0;
  let line = 1;
  const lineAt = (offset: number): number => {
    for (; pos < offset; pos++) if (text.charCodeAt(pos) === 10) line++;
    return line;
  };
  let start = 0;
  while (start < length) {
    while (start < length && isSpace(text.charCodeAt(start))) start++;
    if (start >= length) break;
    const end = chunkEnd(text, start, size);
    let last = end;
    while (last > start && isSpace(text.charCodeAt(last - 1))) last--;
    const firstLine = lineAt(start);
    let endLine = firstLine;
    for (let i = start; i < last - 1; i++) if (text.charCodeAt(i) === 10) endLine++;
    chunks.push({ text: text.slice(start, last), start, end: last, line: firstLine, endLine });
    if (end >= length) break;
    start = nextStart(text, start, end, overlap);
  }
  return chunks;
}

function chunkEnd(text: string, start: number, size: number): number {
  const hard = start + size;
  if (hard >= text.length) return text.length;
  const floor = start + Math.floor(size / 2);
  const newline = text.lastIndexOf('\n', hard - 1);
  if (newline >= floor) return newline + 1;
  for (let i = hard - 1; i >= floor; i--) if (isSpace(text.charCodeAt(i))) return i + 1;
  return isHighSurrogate(text.charCodeAt(hard - 1)) && hard - 1 > start ? hard - 1 : hard;
}

function nextStart(text: string, start: number, end: number, overlap: number): number {
  let next = Math.max(end - overlap, start + 1);
  // Inside a word: go to the start of the next one (the overlap shrinks, it never grows).
  if (next > 0 && !isSpace(text.charCodeAt(next - 1))) {
    let i = next;
    while (i < end && !isSpace(text.charCodeAt(i))) i++;
    next = i < end ? i : next;
  }
  if (isHighSurrogate(text.charCodeAt(next - 1)) && next < end) next++;
  return next;
}
