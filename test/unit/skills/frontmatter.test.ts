/** The lenient SKILL.md frontmatter reader: the YAML that skills in the wild use, and errors with lines. */
import { describe, expect, it } from 'vitest';
import { FrontmatterError, parseFrontmatter } from '../../../src/config/frontmatter.js';

describe('parseFrontmatter', () => {
  it('reads scalars, quotes, inline and block lists, block scalars and a nested map', () => {
    const parsed = parseFrontmatter(
      [
        '---',
        'name: pdf-tools',
        "description: 'It''s for PDFs' # a comment",
        'allowed-tools: [read, "mcp_github_*"]',
        'tools:   # the whitelist',
        '  - read',
        '  - search',
        'compatibility: >',
        '  needs poppler',
        '  installed',
        'notes: |',
        '  line one',
        '  line two',
        'metadata:',
        '  author: me',
        '  version: "1.0"',
        '---',
        '',
        'Body here.',
      ].join('\n'),
    );
    expect(parsed.fields).toEqual({
      name: 'pdf-tools',
      description: "It's for PDFs",
      'allowed-tools': ['read', 'mcp_github_*'],
      tools: ['read', 'search'],
      compatibility: 'needs poppler installed',
      notes: 'line one\nline two',
      metadata: { author: 'me', version: '1.0' },
    });
    expect(parsed.lines.tools).toBe(5);
    expect(parsed.body).toBe('Body here.');
  });

  it('no frontmatter: all body; unclosed frontmatter or quote: an error with its line', () => {
    expect(parseFrontmatter('Just text').body).toBe('Just text');
    expect(() => parseFrontmatter('---\nname: x\n')).toThrow(FrontmatterError);
    try {
      parseFrontmatter('---\nname: x\ndescription: "open\n---\n');
      expect.unreachable();
    } catch (error) {
      expect((error as FrontmatterError).line).toBe(3);
    }
  });
});

describe('parseFrontmatter on YAML (the yaml package, failsafe schema)', () => {
  it('keeps the leniency files in the wild rely on', () => {
    const parsed = parseFrontmatter(
      [
        '---',
        'description: Use when: the user asks # why',
        'name:tight',
        'version: 1.0',
        'flag: true',
        'star: *',
        'empty:',
        'name2: "a # b"',
        '---',
        'Body',
      ].join('\n'),
    );
    expect(parsed.fields).toEqual({
      description: 'Use when: the user asks',
      name: 'tight',
      version: '1.0',
      flag: 'true',
      star: '*',
      empty: '',
      name2: 'a # b',
    });
    expect(parsed.lines.star).toBe(6);
  });

  it('names the file line of what YAML cannot read', () => {
    try {
      parseFrontmatter('---\nname: x\ntools:\n  - a\n    b: [c\n---\n');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(FrontmatterError);
      expect((error as FrontmatterError).line).toBeGreaterThanOrEqual(4);
    }
  });
});
