import { describe, expect, it } from 'vitest';
import { BoundedText, truncate } from '../../../src/util/text.js';

describe('truncate', () => {
  it('leaves text within the limit alone', () => {
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('', 0)).toBe('');
  });

  it('cuts at the limit and appends the note with the full length', () => {
    expect(truncate('abcdef', 4)).toBe('abcd\n(output truncated, 6 chars in total)');
  });
});

describe('BoundedText', () => {
  it('keeps only the head of many chunks but counts all of them', () => {
    const text = new BoundedText(5);
    for (const chunk of ['ab', 'cd', 'ef', 'gh']) text.push(chunk);
    expect(text.total).toBe(8);
    expect(text.toString()).toBe('abcde\n(output truncated, 8 chars in total)');
  });

  it('matches truncate for the same input', () => {
    const text = new BoundedText(3);
    text.push('xyz');
    expect(text.toString()).toBe(truncate('xyz', 3));
    text.push('!');
    expect(text.toString()).toBe(truncate('xyz!', 3));
  });
});
