/** The kind of run the launcher names the core's code cache by (src/cli/launch/choose.ts). */
import { describe, expect, it } from 'vitest';
import { runKind } from '../../../src/cli/launch/choose.js';

describe('runKind', () => {
  it.each([
    [[], 'tui'],
    [['--trust'], 'tui'],
    [['-c'], 'tui'],
    [['--model', 'gpt', '--cwd', 'x'], 'tui'],
    [['--', '-p'], 'tui'],
    [['-p', 'hi'], 'print'],
    [['--print'], 'print'],
    [['--print=hi'], 'print'],
    [['-cp', 'hi'], 'print'],
    [['--allow', 'x', '-p'], 'print'],
    [['trust'], 'print'],
    [['help'], 'print'],
    [['mcp', 'list'], 'mcp'],
    [['--trust', 'mcp', 'list'], 'mcp'],
  ])('%j in a terminal → %s', (args, expected) => {
    expect(runKind(args, true)).toBe(expected);
  });

  it('is print mode whenever stdin or stdout is not a terminal, and `mcp` still `mcp`', () => {
    expect(runKind([], false)).toBe('print');
    expect(runKind(['mcp', 'list'], false)).toBe('mcp');
  });
});
