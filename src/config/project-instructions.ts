/** Reads AGENTS.md at the project root once at start; its text goes into the system prompt. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export const PROJECT_INSTRUCTIONS_FILE = 'AGENTS.md';

export async function readProjectInstructions(root: string): Promise<string | undefined> {
  try {
    const text = await readFile(path.join(root, PROJECT_INSTRUCTIONS_FILE), 'utf8');
    return text.trim() === '' ? undefined : text.trim();
  } catch {
    return undefined;
  }
}
