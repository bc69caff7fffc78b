import { describe, expect, it } from 'vitest';
import { compactLine, cutTo } from '../../../src/util/compact-text.js';

describe('compactLine', () => {
  it('counts runs of blanks and of one character, so what follows them stays in view', () => {
    expect(compactLine(`node '${' '.repeat(4000)}' evil.js`)).toBe("node '⟨4000 spaces⟩' evil.js");
    expect(compactLine(`a${'\n'.repeat(30)}b`)).toBe('a⟨30 newlines⟩b');
    expect(compactLine(`a \t\u3000 b`)).toBe('a⟨4 blanks⟩b');
    expect(compactLine(`x${'='.repeat(50)}y`)).toBe('x⟨= ×50⟩y');
    expect(compactLine('a   b')).toBe('a   b');
  });

  it('shows control characters, counted runs of them too', () => {
    expect(compactLine('x\u001b[2Jy')).toBe('x^[[2Jy');
    expect(compactLine(`a${'\u001b'.repeat(20)}b`)).toBe('a⟨^[ ×20⟩b');
    expect(compactLine(`a${'\u200b'.repeat(20)}b`)).toBe('a⟨<U+200B> ×20⟩b');
  });

  it('keeps the start of an over-long word and says how much is left out', () => {
    const word = 'abcdefghij'.repeat(10);
    expect(compactLine(`run ${word} --then rm`, { longWord: 64, wordKeep: 10 })).toBe(
      'run abcdefghij…⟨+90 chars⟩ --then rm',
    );
  });

  it('keeps tabs when asked (lines of a block)', () => {
    expect(compactLine('a\tb', { keepTabs: true })).toBe('a\tb');
    expect(compactLine('a\tb')).toBe('a^Ib');
  });
});

describe('cutTo', () => {
  it('cuts at the width with an ellipsis, never inside a character', () => {
    expect(cutTo('abcdef', 4)).toBe('abc…');
    expect(cutTo('abc', 4)).toBe('abc');
    expect(cutTo('😀😀😀😀😀', 3)).toBe('😀😀…');
  });
});
