/**
 * The one tool-name pattern (util/tool-pattern.ts): every semantic the four matchers it replaced had
 * (skills' whitelist, agents' `tools`, commands' `allowed-tools`, permission rules, MCP include/exclude).
 */
import { describe, expect, it } from 'vitest';
import { fromClaudeToolName, toolPatternMatches, wildcardRegExp } from '../../../src/util/tool-pattern.js';

const table: Array<[pattern: string, name: string, matches: boolean, why: string]> = [
  ['read', 'read', true, 'no `*`: the exact name'],
  ['read', 'readx', false, 'the whole name must match'],
  ['read', 'xread', false, 'anchored at the start too'],
  ['read', 'Read', false, 'case-sensitive'],
  ['*', 'anything', true, '`*` alone: every name'],
  ['*', '', true, '`*` matches an empty run'],
  ['mcp_demo_*', 'mcp_demo_dice', true, 'an MCP server prefix'],
  ['mcp_demo_*', 'mcp_demo_', true, '`*` matches nothing after the prefix'],
  ['mcp_demo_*', 'mcp_demo2_dice', false, 'another server is not the prefix'],
  ['mcp_demo_*', 'MCP_DEMO_dice', false, 'case-sensitive with `*` too'],
  ['*_dice', 'mcp_demo_dice', true, 'a suffix'],
  ['mcp_*_dice', 'mcp_demo_dice', true, '`*` in the middle'],
  ['mcp_*_dice', 'mcp_demo_roll', false, 'the literal after `*` must match'],
  ['a**b', 'ab', true, 'consecutive stars are one'],
  ['a.*', 'a.b', true, '`.` is literal'],
  ['a.b', 'axb', false, '`.` is not any character'],
  ['a?', 'ab', false, '`?` is literal, not one character'],
  ['a?', 'a?', true, '`?` matches itself'],
  ['a[bc]', 'ab', false, '`[` is literal, no classes'],
  ['a[bc]', 'a[bc]', true, 'brackets match themselves'],
  ['(a|b)*', 'a', false, 'no alternation'],
  ['(a|b)*', '(a|b)x', true, 'parentheses and `|` are literal'],
  ['a+$^\\{1}', 'a+$^\\{1}', true, 'every regex metacharacter is literal'],
  ['mcp:gh/*', 'mcp:gh/create_issue', true, 'an MCP identity pattern (permission rules)'],
  ['mcp:gh/*', 'mcp:gh/line\nbreak', true, '`*` crosses newlines (servers’ own names are not sanitised)'],
  ['x*', 'x😀', true, '`*` over characters outside the BMP'],
  ['git *', 'git status --short', true, 'spaces literal'],
];

describe('toolPatternMatches', () => {
  it.each(table)('%j against %j → %s (%s)', (pattern, name, matches) => {
    expect(toolPatternMatches(pattern, name)).toBe(matches);
    expect(wildcardRegExp(pattern).test(name)).toBe(matches);
  });
});

describe('fromClaudeToolName', () => {
  it('reads Claude Code’s built-in tool names as GeekAgent’s; anything else as written', () => {
    expect(
      [
        'Bash',
        'Read',
        'Write',
        'Edit',
        'MultiEdit',
        'Glob',
        'Grep',
        'LS',
        'WebFetch',
        'TodoWrite',
        'Task',
      ].map(fromClaudeToolName),
    ).toEqual([
      'run_shell',
      'read',
      'write',
      'patch',
      'patch',
      'glob',
      'search',
      'ls',
      'fetch',
      'todo_write',
      'delegate_task',
    ]);
    expect(fromClaudeToolName('read')).toBe('read');
    expect(fromClaudeToolName('mcp_demo_*')).toBe('mcp_demo_*');
    expect(fromClaudeToolName('bash')).toBe('bash');
  });
});
