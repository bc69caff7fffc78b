/**
 * A hook's `matcher` as Claude Code reads it: empty or `*` matches everything, otherwise a regular
 * expression matched against the whole name (`run_shell|write`, `mcp_github_.*`); a pattern that
 * is not a valid expression matches its exact text. A tool is known by its model-facing name and
 * by the names a Claude Code script would use: `mcp__<server>__<tool>` for an MCP tool, and
 * Claude Code's own names of the built-in tools (`Bash` for run_shell, `Edit` for patch, …).
 * Deliberately not util/tool-pattern.ts (every other tool pattern's `*` glob): hook files are
 * shared with Claude Code, whose matchers are regular expressions.
 */
import type { Tool } from '../tools/types.js';
import { CLAUDE_TOOL_NAMES } from '../util/tool-pattern.js';

export type Matcher = (names: readonly string[]) => boolean;

export function compileMatcher(pattern: string): Matcher {
  const trimmed = pattern.trim();
  if (trimmed === '' || trimmed === '*') return () => true;
  let expression: RegExp | undefined;
  try {
    expression = new RegExp(`^(?:${trimmed})$`);
  } catch {
    expression = undefined;
  }
  return (names) => names.some((name) => (expression ? expression.test(name) : name === trimmed));
}

/** Every name a matcher may know `tool` by. */
export function toolNames(tool: Pick<Tool, 'name' | 'origin'>): string[] {
  const names = [tool.name, ...(CLAUDE_TOOL_NAMES[tool.name] ?? [])];
  if (tool.origin?.kind === 'mcp') names.push(`mcp__${tool.origin.server}__${tool.origin.tool}`);
  return names;
}
