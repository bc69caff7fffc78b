/** `visible` / `visibleLine`: what untrusted text looks like once it is safe for a terminal. */
import { describe, expect, it } from 'vitest';
import { hasControlCharacters, visible, visibleLine } from '../../../src/util/terminal-text.js';

const ESC = '\u001b';
const BEL = '\u0007';

describe('visible', () => {
  it('shows C0 controls in caret notation: ESC ^[, CR ^M, BEL ^G, NUL ^@, DEL ^?', () => {
    expect(visible(`a${ESC}[2Jb`)).toBe('a^[[2Jb');
    expect(visible('x\ry')).toBe('x^My');
    expect(visible(`ding${BEL}`)).toBe('ding^G');
    expect(visible('\u0000\u007f\u0008')).toBe('^@^?^H');
  });

  it('shows C1 controls, like the one-byte CSI U+009B, as <U+009B>', () => {
    expect(visible('\u009b31mred')).toBe('<U+009B>31mred');
    expect(visible('\u0085\u009d')).toBe('<U+0085><U+009D>');
  });

  it('disarms an OSC 52 clipboard write and an OSC 8 hyperlink', () => {
    expect(visible(`${ESC}]52;c;ZXZpbA==${BEL}`)).toBe('^[]52;c;ZXZpbA==^G');
    expect(visible(`${ESC}]8;;http://evil${ESC}\\click${ESC}]8;;${ESC}\\`)).toBe(
      '^[]8;;http://evil^[\\click^[]8;;^[\\',
    );
  });

  it('shows bidi overrides and invisible characters that reorder or hide text', () => {
    expect(visible('file\u202Etxt.exe')).toBe('file<U+202E>txt.exe');
    expect(visible('a\u200Bb\u2066c\uFEFF')).toBe('a<U+200B>b<U+2066>c<U+FEFF>');
  });

  it('keeps newlines and tabs, printable Unicode, and is idempotent', () => {
    expect(visible('one\n\ttwo — ✓ 日本')).toBe('one\n\ttwo — ✓ 日本');
    const once = visible(`${ESC}]0;t${BEL}\r\n`);
    expect(visible(once)).toBe(once);
  });
});

describe('visibleLine', () => {
  it('also shows newlines and tabs, so a label stays one line', () => {
    expect(visibleLine('a\nb\tc')).toBe('a^Jb^Ic');
    expect(visibleLine(`${ESC}[1A\r\n`)).toBe('^[[1A^M^J');
  });
});

describe('hasControlCharacters', () => {
  it('tells whether visible would change the text', () => {
    expect(hasControlCharacters('plain\ttext\n')).toBe(false);
    expect(hasControlCharacters(`x${ESC}`)).toBe(true);
    expect(hasControlCharacters('\u202E')).toBe(true);
  });
});
