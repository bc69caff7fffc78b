/**
 * The environment as a settings source: the real environment (`GEEKAGENT_*`, the providers'
 * variables) with a trusted project's `.env` filling only what it leaves unset, and for each
 * variable where its value came from. The merged object is for settings and redaction only:
 * tools and servers inherit the real environment, never `.env`.
 */
import type { SettingSource } from './section.js';

export interface EnvSettings {
  /** The real environment plus the `.env` values it leaves unset (a new object). */
  readonly env: NodeJS.ProcessEnv;
  /** Where `variable`'s value came from (`{kind: 'env', variable, file}` when from `.env`). */
  source(variable: string): SettingSource;
}

export function envSettings(
  real: NodeJS.ProcessEnv,
  dotenv?: { file: string; values: Readonly<Record<string, string>> },
): EnvSettings {
  const env: NodeJS.ProcessEnv = { ...real };
  const fromFile = new Set<string>();
  for (const [name, value] of Object.entries(dotenv?.values ?? {})) {
    if (env[name] !== undefined) continue;
    env[name] = value;
    fromFile.add(name);
  }
  return {
    env,
    source: (variable) =>
      fromFile.has(variable) && dotenv
        ? { kind: 'env', variable, file: dotenv.file }
        : env[variable] !== undefined
          ? { kind: 'env', variable }
          : { kind: 'default' },
  };
}
