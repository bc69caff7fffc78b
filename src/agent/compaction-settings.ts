/**
 * When the conversation is compacted: `GEEKAGENT_AUTO_COMPACT` — the percent of the context window
 * a request may fill before older turns are summarised first (default 80; 0 turns automatic
 * compaction off) — and the described system's `GEEKAGENT_MAX_HISTORY`, a size in characters that
 * also triggers it when set.
 */
import { SettingsError } from '../config/model-settings.js';

export interface CompactionSettings {
  /** 1–100: compact before a request that would fill more than this percent of the window; 0: off. */
  autoPercent: number;
  /** Compact too when the history is longer than this many characters (unset: no such limit). */
  maxHistoryChars: number | undefined;
}

export const DEFAULT_AUTO_COMPACT_PERCENT = 80;
const MAX_HISTORY_LIMIT = 1_000_000_000;

export function resolveCompactionSettings(env: NodeJS.ProcessEnv): CompactionSettings {
  return {
    autoPercent: whole(env, 'GEEKAGENT_AUTO_COMPACT', 0, 100) ?? DEFAULT_AUTO_COMPACT_PERCENT,
    maxHistoryChars: whole(env, 'GEEKAGENT_MAX_HISTORY', 1, MAX_HISTORY_LIMIT),
  };
}

function whole(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (n >= min && n <= max) return n;
  throw new SettingsError(
    `${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`,
  );
}
