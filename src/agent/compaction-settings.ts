/**
 * When the conversation is compacted: `GEEKAGENT_AUTO_COMPACT` — the percent of the context window
 * a request may fill before older turns are summarised first (default 80; 0 turns automatic
 * compaction off) — and the described system's `GEEKAGENT_MAX_HISTORY`, a size in characters that
 * also triggers it when set. Both declared as the compaction section's variables (settings model:
 * `geekagent config` lists them as `compaction.*`); an unusable value stops the run.
 */
import { SettingsError } from '../config/model-settings.js';
import { type EnvSetting, readEnvSetting, wholeNumberIn } from '../settings/env-setting.js';
import type { SettingSource } from '../settings/section.js';

export interface CompactionSettings {
  /** 1–100: compact before a request that would fill more than this percent of the window; 0: off. */
  autoPercent: number;
  /** Compact too when the history is longer than this many characters (unset: no such limit). */
  maxHistoryChars: number | undefined;
}

export const DEFAULT_AUTO_COMPACT_PERCENT = 80;
const MAX_HISTORY_LIMIT = 1_000_000_000;

function wholeSetting(variable: string, min: number, max: number) {
  return wholeNumberIn(
    min,
    max,
    (text) => `${variable} must be a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`,
  );
}

/** The compaction section's variables. */
export const compactionEnvSettings = {
  autoPercent: {
    key: 'compaction.autoPercent',
    variable: 'GEEKAGENT_AUTO_COMPACT',
    description:
      'percent of the context window a request may fill before older turns are summarised (0: off)',
    default: DEFAULT_AUTO_COMPACT_PERCENT,
    parse: wholeSetting('GEEKAGENT_AUTO_COMPACT', 0, 100),
  } satisfies EnvSetting<number>,
  maxHistoryChars: {
    key: 'compaction.maxHistoryChars',
    variable: 'GEEKAGENT_MAX_HISTORY',
    description: 'compact also when the history is longer than this many characters (unset: no such limit)',
    default: undefined,
    parse: wholeSetting('GEEKAGENT_MAX_HISTORY', 1, MAX_HISTORY_LIMIT),
  } satisfies EnvSetting<number | undefined>,
};

export function resolveCompactionSettings(
  env: NodeJS.ProcessEnv,
  sourceOf?: (variable: string) => SettingSource,
): CompactionSettings {
  const value = <T>(setting: EnvSetting<T>): T => {
    const read = readEnvSetting(setting, env, sourceOf);
    if (read.problem !== undefined) throw new SettingsError(read.problem);
    return read.value;
  };
  return {
    autoPercent: value<number>(compactionEnvSettings.autoPercent),
    maxHistoryChars: value<number | undefined>(compactionEnvSettings.maxHistoryChars),
  };
}
