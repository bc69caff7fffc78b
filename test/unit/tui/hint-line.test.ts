import { describe, expect, it } from 'vitest';
import { type HintFacts, hintText, ruleText } from '../../../src/tui/hint-line.js';

const idle: HintFacts = { scroll: 0, candidates: [], busy: false, rewindArmed: false, cols: 80 };

describe('the rule hint', () => {
  it('says nothing when nothing applies', () => {
    expect(hintText(idle)).toBe('');
  });

  it.each<[string, Partial<HintFacts>, string]>([
    [
      'scrolled up beats everything else',
      { scroll: 3, candidates: ['help'], busy: true, rewindArmed: true },
      'scrolled up · PgDn for newer',
    ],
    [
      'an armed Esc beats scrolled up (it lasts a moment)',
      { scroll: 3, rewindArmed: true },
      'Esc again to rewind',
    ],
    [
      'slash candidates beat busy',
      { candidates: ['help', 'history'], busy: true },
      '/help  /history  · Tab completes',
    ],
    ['busy beats an armed Esc', { busy: true, rewindArmed: true }, 'Esc cancels · Enter queues'],
    ['an armed Esc', { rewindArmed: true }, 'Esc again to rewind'],
  ])('%s', (_name, over, hint) => {
    expect(hintText({ ...idle, ...over })).toBe(hint);
  });

  it('escapes command names from project files and cuts them to the line', () => {
    const hint = hintText({ ...idle, candidates: ['evil\u001b[31m', 'x'.repeat(100)], cols: 30 });
    expect(hint).not.toContain('\u001b');
    expect(hint.length).toBeLessThanOrEqual(24);
  });
});

describe('the rule', () => {
  it('fills the width, with the hint at its start when it fits', () => {
    expect(ruleText(12, 'hi')).toBe('── hi ──────');
    expect(ruleText(12, 'hi').length).toBe(12);
    expect(ruleText(6, 'hi')).toBe('──────');
    expect(ruleText(4, '')).toBe('────');
  });
});
