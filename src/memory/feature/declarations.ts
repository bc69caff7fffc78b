/**
 * Folder trust's share of project memory: the project's `.geekagent/memory.json` is recalled into
 * the system prompt, so its presence is one item.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import type { Declaration, TrustContributor } from '../../trust/declarations.js';

export const memoryTrust: TrustContributor = {
  name: 'memory',
  kinds: ['memory'],
  read: ({ projectDir }) => memoryDeclarations(projectDir),
  was: (item) => item.text,
};

/**
 * The project's memory file, when there is one. Valued by its presence, not its content: the
 * agent rewrites it every `memory_write`, and a trusted folder's own notes must not ask again
 * (its writes are recorded as trusted, see create-app); a cloned repository's notes are asked.
 */
export function memoryDeclarations(projectDir: string): Declaration[] {
  const file = path.join(projectDir, '.geekagent', 'memory.json');
  try {
    if (!lstatSync(file).isFile()) return [];
  } catch {
    return [];
  }
  return [memoryDeclaration(file)];
}

export function memoryDeclaration(file: string): Declaration {
  return { key: 'memory', kind: 'memory', name: 'memory.json', file, value: 'present', text: MEMORY_TEXT };
}

export const MEMORY_TEXT = 'project memory .geekagent/memory.json (notes recalled into the prompt)';
