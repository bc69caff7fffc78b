import { describe, expect, it } from 'vitest';
import { fromText } from '../../../src/tui/line-editor.js';
import { completeSlash, slashCandidates } from '../../../src/tui/slash-complete.js';

const names = ['help', 'review', 'frontend:review', 'frontend:render', 'rag'];

describe('slash completion', () => {
  it('matches only while a name is typed', () => {
    expect(slashCandidates('/r', names)).toEqual(['rag', 'review']);
    expect(slashCandidates('/review src', names)).toEqual([]);
    expect(slashCandidates('hello', names)).toEqual([]);
  });

  it('completes one match with a space, several to what they share, else nothing', () => {
    expect(completeSlash(fromText('/rev'), names)?.text).toBe('/review ');
    expect(completeSlash(fromText('/fr'), names)?.text).toBe('/frontend:re');
    expect(completeSlash(fromText('/frontend:re'), names)).toBeUndefined();
    expect(completeSlash(fromText('/zz'), names)).toBeUndefined();
  });
});
