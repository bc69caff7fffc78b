/**
 * Folder trust's share of custom agents: each `.geekagent/agents/*.md` chooses tools and
 * instructions, so each is one item, valued by a hash of its text.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Declaration, TrustContributor } from '../trust/declarations.js';

export const agentTrust: TrustContributor = {
  name: 'agents',
  kinds: ['agent'],
  read: ({ projectDir }) => agentDeclarations(path.join(projectDir, '.geekagent', 'agents')),
  was: (item) => `${agentText(item.name)} (a different text)`,
};

/** One item per `.geekagent/agents/*.md`, valued by a hash of its text: an edited agent is asked again. */
export function agentDeclarations(folder: string): Declaration[] {
  let names: string[];
  try {
    names = readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const file = path.join(folder, name);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return [];
    }
    const value = `sha256:${createHash('sha256').update(text).digest('hex')}`;
    return [{ key: `agent:${name}`, kind: 'agent' as const, name, file, value, text: agentText(name) }];
  });
}

export function agentText(name: string): string {
  return `custom agent .geekagent/agents/${name} (its tools and instructions)`;
}
