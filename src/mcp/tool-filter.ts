/** A server's includeTools / excludeTools patterns applied to its tool names. */
import { toolPatternMatches } from '../util/tool-pattern.js';
import type { McpServerDefinition } from './config.js';

/** includeTools (when given) must match, then excludeTools must not (patterns: util/tool-pattern.ts). */
export function toolIncluded(definition: McpServerDefinition, serverToolName: string): boolean {
  const matchesAny = (patterns: readonly string[]) =>
    patterns.some((pattern) => toolPatternMatches(pattern, serverToolName));
  if (definition.includeTools && !matchesAny(definition.includeTools)) return false;
  return !(definition.excludeTools && matchesAny(definition.excludeTools));
}
