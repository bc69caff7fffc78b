/** A server's includeTools / excludeTools patterns applied to its tool names. */
import type { McpServerDefinition } from './config.js';

/** includeTools (when given) must match, then excludeTools must not; `*` matches any run of characters. */
export function toolIncluded(definition: McpServerDefinition, serverToolName: string): boolean {
  const matchesAny = (patterns: readonly string[]) =>
    patterns.some((pattern) => patternToRegExp(pattern).test(serverToolName));
  if (definition.includeTools && !matchesAny(definition.includeTools)) return false;
  return !(definition.excludeTools && matchesAny(definition.excludeTools));
}

function patternToRegExp(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((literal) => literal.replace(/[\\^$.|?+()[\]{}]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 'su');
}
