import { describe, expect, it } from 'vitest';
import { chunkText, MEMORY_CHUNK, RAG_CHUNK } from '../../../src/search/index.js';

/** 1-based line of an offset, counted independently of the chunker. */
const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

describe('chunkText', () => {
  it('keeps a short text whole, without surrounding whitespace', () => {
    expect(chunkText('  hello world \n', 320, 80)).toEqual([
      { text: 'hello world', start: 2, end: 13, line: 1, endLine: 1 },
    ]);
    expect(chunkText('', 320, 80)).toEqual([]);
    expect(chunkText(' \n\t ', 320, 80)).toEqual([]);
  });

  it('breaks at a newline in the second half of the window, else at a space', () => {
    const text = 'alpha beta gamma\ndelta epsilon zeta eta theta';
    const [first, second] = chunkText(text, 24, 0);
    expect(first?.text).toBe('alpha beta gamma');
    expect(second?.text.startsWith('delta')).toBe(true);
    const words = chunkText('one two three four five six seven', 12, 0).map((c) => c.text);
    expect(words).toEqual(['one two', 'three four', 'five six', 'seven']);
  });

  it('overlaps consecutive chunks by about the overlap, starting at a word', () => {
    const text = Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ');
    const chunks = chunkText(text, RAG_CHUNK.size, RAG_CHUNK.overlap);
    expect(chunks.length).toBeGreaterThan(2);
    for (let i = 0; i < chunks.length; i++) {
      const c = chunks[i]!;
      expect(c.text).toBe(text.slice(c.start, c.end));
      expect(c.text.length).toBeLessThanOrEqual(RAG_CHUNK.size);
      expect(c.text).toMatch(/^w\d+/);
      if (i > 0) {
        const overlap = chunks[i - 1]!.end - c.start;
        expect(overlap).toBeGreaterThan(0);
        expect(overlap).toBeLessThanOrEqual(RAG_CHUNK.overlap);
      }
    }
    expect(chunks.at(-1)!.end).toBe(text.length);
  });

  it('covers every character and knows the lines of each chunk', () => {
    const text = Array.from({ length: 120 }, (_, i) => `line ${i + 1}: ${'x'.repeat(i % 37)}`).join('\n');
    const lines = text.split('\n');
    const chunks = chunkText(text, MEMORY_CHUNK.size, MEMORY_CHUNK.overlap);
    let covered = 0;
    for (const c of chunks) {
      expect(c.start).toBeLessThanOrEqual(covered);
      covered = Math.max(covered, c.end);
      expect(c.line).toBe(lineOf(text, c.start));
      expect(c.endLine).toBe(lineOf(text, c.end - 1));
      expect(lines[c.line - 1]!.endsWith(c.text.split('\n')[0]!)).toBe(true);
      expect(lines[c.endLine - 1]!.startsWith(c.text.split('\n').at(-1)!)).toBe(true);
    }
    expect(covered).toBe(text.length);
  });

  it('cuts a word longer than the size, never inside a surrogate pair', () => {
    const long = 'a'.repeat(25);
    expect(chunkText(long, 10, 2).map((c) => c.text.length)).toEqual([10, 10, 9]);
    const emoji = '😀'.repeat(10);
    for (const c of chunkText(emoji, 5, 1)) {
      expect(c.text).toBe(Array.from(c.text).join(''));
      expect(c.text).toMatch(/^(😀)+$/u);
    }
  });

  it('refuses sizes that make no sense', () => {
    expect(() => chunkText('x', 0, 0)).toThrow(RangeError);
    expect(() => chunkText('x', 10, 10)).toThrow(/overlap/);
    expect(() => chunkText('x', 10, -1)).toThrow(/overlap/);
    expect(() => chunkText('x', 2.5, 0)).toThrow(/size/);
  });
});
