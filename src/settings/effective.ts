/**
 * Effective settings as `geekagent config` shows them: one line per key with its value and its
 * source. Sections merged key by key (`set`, `listed`) are flattened here; a section that narrows
 * describes itself (sandbox/settings.ts). Secrets are never shown, only where they are set.
 */
import { jsonPath } from '../util/json-file.js';
import type { SectionRead, SettingSource, SettingsSection } from './section.js';

export interface Setting {
  /** Dotted key: `tools.run_shell`, `sandbox.mode`, `model.apiKey`. */
  key: string;
  value: unknown;
  source: SettingSource;
  /** A key or token: shown as "set", never its value. */
  secret?: boolean;
  /** Why it applies only in part (a folder that is not trusted, a narrowing file), or an unusable value. */
  note?: string;
  /** What it does, one line (declared settings: `EnvSetting.description`). */
  description?: string;
}

/**
 * Each leaf of each layer (arrays are one value), the higher scope winning a key both set. A
 * `narrow` scope is left to the section's own description.
 */
export function flattenSection<T>(section: SettingsSection<T>, read: SectionRead<T>): Setting[] {
  const byKey = new Map<string, Setting>();
  for (const layer of read.layers) {
    if (section.scopes[layer.scope] === 'narrow') continue;
    const base = section.key === '' ? [] : [section.key];
    for (const [parts, value] of leaves(layer.value, base)) {
      const key = jsonPath(parts);
      byKey.set(key, { key, value, source: { kind: 'file', scope: layer.scope, file: layer.file, key } });
    }
  }
  return [...byKey.values()];
}

function leaves(value: unknown, at: PropertyKey[]): Array<[PropertyKey[], unknown]> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [[at, value]];
  const entries = Object.entries(value);
  if (entries.length === 0) return [[at, value]];
  return entries.flatMap(([key, inner]) => leaves(inner, [...at, key]));
}

/** `user /home/me/.geekagent/GeekAgent.json (tools.run_shell)`, `env OPENAI_MODEL`, `.env /p/.env (OPENAI_API_KEY)`. */
export function describeSource(source: SettingSource): string {
  switch (source.kind) {
    case 'file':
      return `${source.scope} ${source.file} (${source.key})`;
    case 'env':
      return source.file ? `.env ${source.file} (${source.variable})` : `env ${source.variable}`;
    case 'cli':
      return `flag ${source.flag}`;
    case 'default':
      return 'default';
  }
}

/** The value as shown: a secret only says that it is set and where from, text as JSON. */
export function describeValue(setting: Setting): string {
  if (setting.secret) {
    if (setting.value === undefined) return 'not set';
    const from =
      setting.source.kind === 'env' && setting.source.file ? '.env' : describeSource(setting.source);
    return `set (from ${from})`;
  }
  return setting.value === undefined ? 'not set' : JSON.stringify(setting.value);
}
