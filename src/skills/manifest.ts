/**
 * What a SKILL.md's frontmatter grants, read the one way both its users need: loading the skill and
 * its trust declarations (declarations.ts: to show the person what a project skill brings before it
 * loads) — the tool list of `tools:` / `allowed-tools`, and the executables of `tools_exec:`
 * resolved to real files inside the skill folder. One reader, so what is asked is what loads.
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FrontValue } from '../config/frontmatter.js';
import { fromClaudeToolName } from '../util/tool-pattern.js';

/**
 * A list, or a string of names separated by spaces or commas (the spec's `allowed-tools: a b`);
 * Claude Code's names (`Read`, `Bash`) read as GeekAgent's, as skills written for it use them.
 */
export function toolList(value: FrontValue): string[] | null {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\s,]+/) : null;
  return items === null ? null : items.filter((item) => item !== '').map(fromClaudeToolName);
}

/**
 * The tools `allowed-tools` pre-approves (the Agent Skills sense; `tools:` only limits and wins
 * when both are given); undefined when it pre-approves nothing.
 */
export function preApprovedTools(fields: Record<string, FrontValue>): string[] | undefined {
  const allowed = fields['allowed-tools'];
  if (fields.tools !== undefined || allowed === undefined) return undefined;
  return toolList(allowed) ?? undefined;
}

/** One `tools_exec` entry: `<tool>: <path in the skill folder>[ -- <description>]`. */
export interface SkillExecutable {
  tool: string;
  /** The path as written (relative to the skill folder). */
  relative: string;
  /** Its real path, inside the skill folder. */
  file: string;
  description: string;
}

const TOOL_NAME = /^[a-z0-9_-]{1,32}$/;

/** The executables `tools_exec` declares in `dir`, or the reason they cannot be used. */
export function readExecutables(dir: string, value: FrontValue): SkillExecutable[] | string {
  if (typeof value !== 'object' || Array.isArray(value))
    return 'tools_exec must be a map of tool name: path in the skill folder';
  const out: SkillExecutable[] = [];
  const base = realpathSync(dir);
  for (const [tool, spec] of Object.entries(value)) {
    if (!TOOL_NAME.test(tool)) return `tools_exec: tool name "${tool}" must be 1-32 of a-z 0-9 _ -`;
    const [first = '', ...rest] = spec.split(' -- ');
    const relative = first.trim();
    let file: string;
    try {
      file = realpathSync(path.resolve(dir, relative));
    } catch {
      return `tools_exec: ${tool}: ${relative} does not exist in the skill folder`;
    }
    if (!file.startsWith(`${base}${path.sep}`))
      return `tools_exec: ${tool}: ${relative} is outside the skill folder`;
    if (!statSync(file).isFile()) return `tools_exec: ${tool}: ${relative} is not a file`;
    out.push({ tool, relative, file, description: rest.join(' -- ').trim() });
  }
  return out;
}
