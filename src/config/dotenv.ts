/**
 * Loads `<dir>/.env` into an env object without overriding what is already set: the real
 * environment always wins over the file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';

export function loadDotEnv(dir: string, env: NodeJS.ProcessEnv): void {
  let text: string;
  try {
    text = readFileSync(path.join(dir, '.env'), 'utf8');
  } catch {
    // No file (or an unreadable one) means no extra settings, never a failed start.
    return;
  }
  let parsed: NodeJS.Dict<string>;
  try {
    parsed = parseEnv(text);
  } catch {
    return;
  }
  for (const [name, value] of Object.entries(parsed)) {
    if (value !== undefined && env[name] === undefined) env[name] = value;
  }
}
