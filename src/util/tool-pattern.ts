/**
 * The one tool-name pattern every GeekAgent setting uses (permission rules, MCP include/exclude
 * lists, skill and agent `tools`, command `allowed-tools`): `*` matches any run of characters
 * (none, newlines too); everything else is literal and case-sensitive (`?`, `.`, `[` included);
 * the whole name must match. Also the table of Claude Code's names for
 * the built-in tools, so files written for Claude Code name the same tools here.
 * Hook matchers are not this syntax: they are Claude Code's regular expressions (hooks/matching.ts),
 * and sandbox `allowUnconfined` command lines are read as a shell reads them (sandbox/command-line.ts).
 */

/** `pattern` as an anchored expression, compiled once by callers on a hot path (permission rules). */
export function wildcardRegExp(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((literal) => literal.replace(/[\\^$.|?+()[\]{}]/g, '\\$&'))
    .join('.*');
  // `s`: `*` crosses newlines (an MCP server's own tool names are not sanitised); `u`: by code point.
  return new RegExp(`^${body}$`, 'su');
}

export function toolPatternMatches(pattern: string, toolName: string): boolean {
  if (!pattern.includes('*')) return pattern === toolName;
  return wildcardRegExp(pattern).test(toolName);
}

/** Claude Code's names of the built-in tools, by GeekAgent name. */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, readonly string[]>> = {
  run_shell: ['Bash'],
  write: ['Write'],
  patch: ['Edit', 'MultiEdit'],
  read: ['Read'],
  glob: ['Glob'],
  search: ['Grep'],
  ls: ['LS'],
  fetch: ['WebFetch'],
  delegate_task: ['Task'],
  todo_write: ['TodoWrite'],
};

const FROM_CLAUDE: ReadonlyMap<string, string> = new Map(
  Object.entries(CLAUDE_TOOL_NAMES).flatMap(([ours, theirs]) => theirs.map((name) => [name, ours] as const)),
);

/** A tool list entry written for Claude Code (`Read`) as GeekAgent's name (`read`); others as they are. */
export function fromClaudeToolName(entry: string): string {
  return FROM_CLAUDE.get(entry) ?? entry;
}
