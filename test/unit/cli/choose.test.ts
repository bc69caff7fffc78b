/** Which bundle the launcher picks (src/cli/launch/choose.ts): the TUI's only for what looks interactive. */
import { describe, expect, it } from 'vitest';
import { looksInteractive, runKind } from '../../../src/cli/launch/choose.js';

describe('looksInteractive', () => {
  it.each([
    [[], true],
    [['--trust'], true],
    [['-c'], true],
    [['--model', 'gpt', '--cwd', 'x'], true],
    [['-p', 'hi'], false],
    [['--print'], false],
    [['--print=hi'], false],
    [['-cp', 'hi'], false],
    [['--allow', 'x', '-p'], false],
    [['mcp', 'list'], false],
    [['--trust', 'mcp', 'list'], false],
    [['trust'], false],
    [['help'], false],
    [['--', '-p'], true],
  ])('%j in a terminal → %s', (args, expected) => {
    expect(looksInteractive(args, true)).toBe(expected);
  });

  it('is false whenever stdin or stdout is not a terminal', () => {
    expect(looksInteractive([], false)).toBe(false);
  });
});

describe('runKind', () => {
  it('keeps `mcp …` runs apart from chat runs', () => {
    expect(runKind(['mcp', 'list'])).toBe('mcp');
    expect(runKind(['--trust', 'mcp', 'list'])).toBe('mcp');
    expect(runKind(['-p', 'hi'])).toBe('chat');
    expect(runKind([])).toBe('chat');
  });
});
