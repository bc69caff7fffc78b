/**
 * What the model is told about skills: the catalog (name + description of every loadable skill,
 * within a budget of 2% of the context window — descriptions are shortened to fit and the
 * shortened ones are reported in `/skills`, never cut silently) and the active skills' bodies with
 * their folders.
 */
import type { Skill } from './discover.js';

export const CATALOG_SHARE = 0.02;
const CHARS_PER_TOKEN = 4;
const HEADER =
  'Skills (when a task matches a description, call use_skill with its name to load its instructions):';

export interface Catalog {
  text: string;
  budget: number;
  /** Names whose description was shortened to fit the budget. */
  shortened: string[];
}

export function catalogBudget(contextWindow: number): number {
  return Math.floor(contextWindow * CATALOG_SHARE * CHARS_PER_TOKEN);
}

export function buildCatalog(skills: readonly Skill[], budget: number): Catalog {
  if (skills.length === 0) return { text: '', budget, shortened: [] };
  const full = skills.map((skill) => `- ${skill.name}: ${skill.description}`);
  const size = (lines: string[]) => HEADER.length + lines.reduce((sum, line) => sum + line.length + 1, 0);
  if (size(full) <= budget) return { text: [HEADER, ...full].join('\n'), budget, shortened: [] };
  // Every entry keeps its name; the room left is shared equally by the descriptions.
  const fixed = size(skills.map((skill) => `- ${skill.name}: `));
  const each = Math.max(0, Math.floor((budget - fixed) / skills.length));
  const shortened: string[] = [];
  const lines = skills.map((skill) => {
    if (skill.description.length <= each) return `- ${skill.name}: ${skill.description}`;
    shortened.push(skill.name);
    return `- ${skill.name}: ${each > 1 ? `${skill.description.slice(0, each - 1)}…` : ''}`;
  });
  return { text: [HEADER, ...lines].join('\n'), budget, shortened };
}

/** One active skill as a prompt section: its folder (for files the body refers to) and its body. */
export function activeSkillText(skill: Skill): string {
  const limit = skill.whitelist
    ? `\nWhile it is active you may use only these tools: ${skill.whitelist.join(', ')}`
    : '';
  if (skill.server) {
    const { name, files } = skill.server;
    const where = files.length > 0 ? `; its files are resources of that server: ${files.join(', ')}` : '';
    return `Active skill "${skill.name}" (from MCP server ${name}${where}):${limit}\n${skill.body}`;
  }
  return `Active skill "${skill.name}" (folder: ${skill.dir}; read files it mentions from there):${limit}\n${skill.body}`;
}
