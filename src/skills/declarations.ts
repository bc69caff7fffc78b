/**
 * What a project skill folder declares, as trust declarations: the folder itself (its SKILL.md
 * and mcp.json by hash: instructions reach the model), the tools its `allowed-tools` pre-approves,
 * each `tools_exec` executable by the hash of its content (a changed `bin/run.sh` is asked again),
 * and each server of its mcp.json by its entry (the command line it runs). Read raw with the same
 * readers the skills use (manifest.ts), nothing run.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type FrontValue, parseFrontmatter } from '../config/frontmatter.js';
import { projectSkillLocations, SKILL_FILE, skillFolders } from '../config/skill-paths.js';
import { documentOf, serversOf } from '../mcp/config.js';
import { canonicalJson, type Declaration, serverText, type TrustContributor } from '../trust/declarations.js';
import { preApprovedTools, readExecutables } from './manifest.js';

const SKILL_MCP_FILE = 'mcp.json';
const ALLOW_NOTE = '(not asked in a turn you activate the skill)';

export const skillTrust: TrustContributor = {
  name: 'skills',
  kinds: ['skill', 'skillAllow', 'skillTool', 'skillServer'],
  read: ({ projectDir }) => skillDeclarations(projectDir),
  was: skillWasText,
};

/** Every project skill folder's declarations, a folder's items together. */
export function skillDeclarations(projectDir: string): Declaration[] {
  return skillFolderDeclarations(projectDir).flatMap((folder) => folder.items);
}

/** Each project skill folder (as skills/discover.ts finds it) with its declarations. */
export function skillFolderDeclarations(projectDir: string): Array<{ dir: string; items: Declaration[] }> {
  return projectSkillLocations(projectDir).flatMap((location) =>
    skillFolders(location).map((dir) => ({ dir, items: folderDeclarations(projectDir, dir) })),
  );
}

function folderDeclarations(projectDir: string, dir: string): Declaration[] {
  const relative = path.relative(projectDir, dir) || '.';
  const skillFile = path.join(dir, SKILL_FILE);
  const items: Declaration[] = [folderDeclaration(relative, dir)];
  let fields: Record<string, FrontValue> = {};
  try {
    fields = parseFrontmatter(readFileSync(skillFile, 'utf8')).fields;
  } catch {
    // Unreadable: the skill does not load (its error is listed); the folder's hash still covers it.
  }
  const allowed = preApprovedTools(fields);
  if (allowed && allowed.length > 0) {
    const value = canonicalJson(allowed);
    items.push({
      key: `skill-allow:${relative}`,
      kind: 'skillAllow',
      name: relative,
      file: skillFile,
      value,
      text: `skill ${relative} ${tail('skillAllow', relative, value)}`,
    });
  }
  const name = typeof fields.name === 'string' ? fields.name : path.basename(dir);
  for (const executable of executablesOf(dir, fields.tools_exec)) {
    const tool = `skill_${name}_${executable.tool}`;
    const value = fileHash(executable.file);
    items.push({
      key: `skill-tool:${relative}:${executable.tool}`,
      kind: 'skillTool',
      name: tool,
      file: executable.file,
      value,
      text: `skill ${relative} tool ${tool}: ${executable.relative} ${tail('skillTool', tool, value)}`,
    });
  }
  const mcpFile = path.join(dir, SKILL_MCP_FILE);
  for (const [server, raw] of serversIn(mcpFile)) {
    const value = canonicalJson(raw);
    items.push({
      key: `skill-server:${relative}:${server}`,
      kind: 'skillServer',
      name: server,
      file: mcpFile,
      value,
      text: `skill ${relative} ${tail('skillServer', server, value)}`,
    });
  }
  return items;
}

/** The folder, valued by a hash of its SKILL.md and mcp.json (any change asks again). */
function folderDeclaration(relative: string, dir: string): Declaration {
  const hash = createHash('sha256');
  for (const name of [SKILL_FILE, SKILL_MCP_FILE]) {
    try {
      hash.update(`${name}\0`).update(readFileSync(path.join(dir, name)));
    } catch {
      hash.update(`${name}\0missing`);
    }
  }
  return {
    key: `skill:${relative}`,
    kind: 'skill',
    name: path.basename(dir),
    file: path.join(dir, SKILL_FILE),
    value: `sha256:${hash.digest('hex')}`,
    text: skillText(relative),
  };
}

export function skillText(relative: string): string {
  return `skill ${relative} (instructions, tool whitelist, skill tools and servers)`;
}

/** A changed skill item as it was: the same line with the value it had. */
export function skillWasText(item: Declaration, before: string): string {
  if (item.kind !== 'skillAllow' && item.kind !== 'skillTool' && item.kind !== 'skillServer')
    return `${item.text} (different content)`;
  const now = tail(item.kind, item.name, item.value);
  const prefix = item.text.endsWith(now) ? item.text.slice(0, item.text.length - now.length) : '';
  return `${prefix}${tail(item.kind, item.name, before)}`;
}

/** The part of an item's line its value decides. */
function tail(kind: 'skillAllow' | 'skillTool' | 'skillServer', name: string, value: string): string {
  switch (kind) {
    case 'skillAllow': {
      let tools: unknown;
      try {
        tools = JSON.parse(value);
      } catch {
        tools = value;
      }
      return `allowed-tools: ${Array.isArray(tools) ? tools.join(' ') : String(tools)} ${ALLOW_NOTE}`;
    }
    case 'skillTool':
      return `(${value.replace(/^sha256:/, 'sha256 ').slice(0, 'sha256 '.length + 16)})`;
    case 'skillServer':
      return serverText(name, value);
  }
}

function executablesOf(dir: string, value: FrontValue | undefined) {
  if (value === undefined) return [];
  try {
    const executables = readExecutables(dir, value);
    // Not usable: the skill does not load (its error is listed); nothing of it runs.
    return typeof executables === 'string' ? [] : executables;
  } catch {
    return [];
  }
}

function fileHash(file: string): string {
  try {
    return `sha256:${createHash('sha256').update(readFileSync(file)).digest('hex')}`;
  } catch {
    return 'missing';
  }
}

/** The servers of a skill's mcp.json as written; none when it is missing or broken (then none start). */
function serversIn(file: string): Array<[string, unknown]> {
  try {
    return Object.entries(serversOf(file, documentOf(file, JSON.parse(readFileSync(file, 'utf8')))));
  } catch {
    return [];
  }
}
