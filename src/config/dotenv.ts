/**
 * A project's `.env`: only model settings (`OPENAI_*`, `ANTHROPIC_*`, `GEMINI_*`,
 * `GOOGLE_GEMINI_BASE_URL`, `GEEKAGENT_*` except the trust and user-state keys) are read from it, into a separate object — never into the environment that
 * tools and MCP servers inherit. The real environment always wins over the file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { envSettings } from '../settings/env.js';

export const DOTENV_FILE = '.env';

/** Keys a repository's `.env` must never set: they move user state or decide trust. */
const NEVER_FROM_DOTENV = /^GEEKAGENT_(HOME|TRUST.*)$/;

/** Whether `name` is a model setting a trusted project's `.env` may provide. */
export function isModelSetting(name: string): boolean {
  return (
    (/^(OPENAI|ANTHROPIC|GEMINI|GEEKAGENT)_[A-Z0-9_]+$/.test(name) || name === 'GOOGLE_GEMINI_BASE_URL') &&
    !NEVER_FROM_DOTENV.test(name)
  );
}

/** The model settings written in `<dir>/.env` (empty when there is none or it cannot be read). */
export function readModelDotEnv(dir: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path.join(dir, DOTENV_FILE), 'utf8');
  } catch {
    // No file (or an unreadable one) means no extra settings, never a failed start.
    return {};
  }
  let parsed: NodeJS.Dict<string>;
  try {
    parsed = parseEnv(text);
  } catch {
    return {};
  }
  const settings: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (value !== undefined && isModelSetting(name)) settings[name] = value;
  }
  return settings;
}

/**
 * The environment model settings are resolved from: the real environment, with the `.env`
 * settings filling only what it leaves unset. A new object; `env` is not touched.
 */
export function withDotEnvSettings(
  env: NodeJS.ProcessEnv,
  dotenv: Readonly<Record<string, string>>,
): NodeJS.ProcessEnv {
  return envSettings(env, { file: DOTENV_FILE, values: dotenv }).env;
}
