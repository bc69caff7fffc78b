/** Finding `@path` mentions and pasted image paths in the person's input. */
import { describe, expect, it } from 'vitest';
import { findMentions, pastedPath, resourceServerOf } from '../../../src/mentions/parse.js';
import { applyCompletion, mentionWordAt } from '../../../src/tui/completion.js';

describe('findMentions', () => {
  it('reads plain, quoted and escaped paths; not an e-mail address', () => {
    const found = findMentions('see @src/app.ts, @"my notes.md" and @a\\ b.txt; mail me@x.org');
    expect(found.map((m) => m.path)).toEqual(['src/app.ts,', 'my notes.md', 'a b.txt;']);
    expect(found.map((m) => m.trimmed)).toEqual(['src/app.ts', 'my notes.md', 'a b.txt']);
  });

  it('tells a resource mention by its server-name shape', () => {
    const [resource, file] = findMentions('@demo:file:///x @src/a.ts');
    expect(resourceServerOf(resource!)).toBe('demo');
    expect(resourceServerOf(file!)).toBeUndefined();
  });
});

describe('pastedPath', () => {
  it('takes a pasted image path alone or first, quoted, escaped, file:// or ~/', () => {
    expect(pastedPath('/tmp/shot.png')).toBe('/tmp/shot.png');
    expect(pastedPath('/tmp/My\\ Shot.png what is this?')).toBe('/tmp/My Shot.png');
    expect(pastedPath("'/tmp/My Shot.jpeg'")).toBe('/tmp/My Shot.jpeg');
    expect(pastedPath('file:///tmp/a%20b.webp')).toBe('/tmp/a b.webp');
    expect(pastedPath('~/Desktop/x.gif', '/home/me')).toBe('/home/me/Desktop/x.gif');
  });

  it('leaves other input alone', () => {
    expect(pastedPath('explain /tmp/shot.png')).toBeUndefined();
    expect(pastedPath('/tmp/notes.txt')).toBeUndefined();
    expect(pastedPath('/help')).toBeUndefined();
  });
});

describe('completion in the input line', () => {
  const buffer = (text: string) => ({ text, cursor: text.length });
  it('finds the @ word before the cursor', () => {
    expect(mentionWordAt(buffer('explain @src/ap'))).toEqual({ start: 8, word: '@src/ap' });
    expect(mentionWordAt(buffer('mail me@x'))).toBeUndefined();
  });

  it('takes one candidate whole, several as far as they agree', () => {
    const at = mentionWordAt(buffer('x @sr'))!;
    expect(applyCompletion(buffer('x @sr'), at, ['@src/'])).toEqual({ buffer: buffer('x @src/'), shown: [] });
    expect(applyCompletion(buffer('x @sr'), at, ['@src/a.ts'])).toEqual({
      buffer: buffer('x @src/a.ts '),
      shown: [],
    });
    const several = applyCompletion(buffer('x @sr'), at, ['@src/api.ts', '@src/app.ts']);
    expect(several).toEqual({ buffer: buffer('x @src/ap'), shown: ['@src/api.ts', '@src/app.ts'] });
    expect(applyCompletion(buffer('x @sr'), at, [])).toEqual({ buffer: buffer('x @sr'), shown: [] });
  });
});
