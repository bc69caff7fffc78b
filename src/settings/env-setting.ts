/**
 * A setting a person sets with a `GEEKAGENT_*` variable, declared by the feature that uses it: its
 * key under the feature's section (`compaction.autoPercent`), the variable, how a value is parsed
 * (an unusable one names the variable), its default and one line saying what it does. Read
 * through `readEnvSetting`, which also says where the value came from, so `geekagent config`
 * lists it under the feature's key with `[env GEEKAGENT_…]` or `[default]`. What an unusable value
 * does is the feature's: stop the run, or use the default and say so.
 */
import type { SettingSource } from './section.js';

export type EnvParse<T> = { ok: true; value: T } | { ok: false; problem: string };

export interface EnvSetting<T> {
  /** Dotted key under the feature's section: `compaction.autoPercent`, `toolSearch.mode`. */
  key: string;
  /** `GEEKAGENT_AUTO_COMPACT`. */
  variable: string;
  /** One line for a person: what it does, its unit and range. */
  description: string;
  /** The value when the variable is unset or empty (undefined: no value, e.g. no limit). */
  default: T;
  /**
   * A set variable's value (given as set, untrimmed), or why it cannot be used — the message
   * names the variable (`GEEKAGENT_TOOL_SEARCH=x is not auto, on or off: using auto`).
   */
  parse(raw: string): EnvParse<T>;
}

export interface EnvValue<T> {
  value: T;
  source: SettingSource;
  /** The variable's value could not be used: `value` is the default. */
  problem?: string;
}

/**
 * The setting's value in `env` (the run's settings environment): unset or blank → the default;
 * else the parsed value, or the default with the problem. `sourceOf` tells a `.env` value from
 * the real environment (settings/env.ts); without it a set variable is the real environment's.
 */
export function readEnvSetting<T>(
  setting: EnvSetting<T>,
  env: NodeJS.ProcessEnv,
  sourceOf?: (variable: string) => SettingSource,
): EnvValue<T> {
  const raw = env[setting.variable];
  if (raw === undefined || raw.trim() === '') return { value: setting.default, source: { kind: 'default' } };
  const source = sourceOf?.(setting.variable) ?? { kind: 'env', variable: setting.variable };
  const parsed = setting.parse(raw);
  return parsed.ok
    ? { value: parsed.value, source }
    : { value: setting.default, source, problem: parsed.problem };
}

/** Whole numbers in `[min, max]` (digits only, surrounding blanks allowed). */
export function wholeNumberIn(
  min: number,
  max: number,
  problem: (text: string) => string,
): (raw: string) => EnvParse<number> {
  return (raw) => {
    const text = raw.trim();
    const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    return n >= min && n <= max ? { ok: true, value: n } : { ok: false, problem: problem(text) };
  };
}
