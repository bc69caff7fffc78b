/**
 * `/skills` as text: every skill found with its source, file, description, tools, status (active,
 * available, untrusted, shadowed, or its error with file and line) and whether the catalog
 * shortened its description. Skill files are untrusted: every string goes through visibleLine.
 */
import path from 'node:path';
import { visibleLine } from '../util/terminal-text.js';
import type { Catalog } from './catalog.js';
import type { Skill } from './discover.js';

export function formatSkills(
  skills: readonly Skill[],
  active: readonly string[],
  catalog: Catalog,
  projectDir: string,
): string {
  if (skills.length === 0)
    return 'no skills found (looked in skills/, .geekagent/skills/, .agents/skills/, .claude/skills/ up to the git root, and the user skills folders)';
  const lines: string[] = [];
  for (const skill of skills) {
    const shown = skill.server ? skill.file : shownPath(skill.file, projectDir);
    const isActive = skill.status.kind === 'ok' && active.includes(skill.name);
    lines.push(
      `${isActive ? '*' : ' '} ${visibleLine(skill.name)}  (${skill.server ? `MCP server ${visibleLine(skill.server.name)}` : skill.source}: ${visibleLine(shown)})`,
    );
    if (skill.description) lines.push(`    ${visibleLine(skill.description)}`);
    if (skill.whitelist)
      lines.push(
        `    tools: ${visibleLine(skill.whitelist.join(', '))}${skill.preApproved ? ' (allowed-tools: pre-approved in a turn you activate it in)' : ''}`,
      );
    if (skill.tools.length > 0)
      lines.push(
        `    skill tools: ${visibleLine(skill.tools.map((tool) => tool.name).join(', '))} (asked before each run)`,
      );
    lines.push(`    status: ${status(skill, isActive, shown)}`);
    if (catalog.shortened.includes(skill.name))
      lines.push(
        `    catalog: description shortened to fit the catalog budget (${catalog.budget} chars, 2% of the context window)`,
      );
  }
  return lines.join('\n');
}

function status(skill: Skill, isActive: boolean, shown: string): string {
  switch (skill.status.kind) {
    case 'ok':
      return isActive ? 'active' : 'available';
    case 'untrusted':
      return skill.status.changed
        ? 'not loaded: new or changed since you trusted the folder (/skills reload asks)'
        : 'not loaded: the folder is not trusted (run geekagent trust, or --trust for one run)';
    case 'shadowed':
      return `not loaded: a skill of the same name comes first (${visibleLine(skill.status.by)})`;
    case 'error':
      // A server's skill that failed verification has no line worth naming.
      if (skill.server && skill.status.message.startsWith('refused: '))
        return `not loaded: ${visibleLine(skill.status.message)}`;
      return `error: ${visibleLine(shown)}:${skill.status.line}: ${visibleLine(skill.status.message)}`;
  }
}

function shownPath(file: string, projectDir: string): string {
  const relative = path.relative(projectDir, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}
