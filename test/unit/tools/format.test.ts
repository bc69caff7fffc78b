/** The one-line tool progress line: flattened, control characters visible, cut after escaping. */
import { describe, expect, it } from 'vitest';
import { formatToolLine } from '../../../src/tools/format.js';

const ESC = '\u001b';

describe('formatToolLine', () => {
  it('flattens whitespace (CR LF included) and shows escapes in the name and the result', () => {
    expect(formatToolLine(`t${ESC}[2J`, `one\r\ntwo ${ESC}]0;x\u0007 \u009b1m`)).toBe(
      '[Calling tool t^[[2J → one two ^[]0;x^G <U+009B>1m]',
    );
  });

  it('cuts the escaped text, so the line stays within its width and holds no raw escape', () => {
    const line = formatToolLine('read', `${ESC}[2J`.repeat(100), 20);
    expect(line).toBe(`[Calling tool read → ${'^[[2J'.repeat(3)}^[[2…]`);
    expect(line).not.toContain(ESC);
  });
});
