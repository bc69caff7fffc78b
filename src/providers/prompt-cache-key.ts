/**
 * Whether a request carries the session's `prompt_cache_key` (OpenAI routes requests with the same
 * key to the same prompt cache, as Codex sends it). OpenAI's own API accepts the field; a
 * compatible server may reject a field it does not know (HTTP 400), so elsewhere it is sent only
 * when the person turns it on: `GEEKAGENT_PROMPT_CACHE_KEY=1` (always) or `0` (never).
 */
import { type EnvSetting, readEnvSetting } from '../settings/env-setting.js';
import { visibleLine } from '../util/terminal-text.js';

export type PromptCacheKeyMode = 'auto' | 'on' | 'off';

/** The hosts that accept `prompt_cache_key` without being asked to send it. */
const ACCEPTING_HOSTS = new Set(['api.openai.com']);

/** The model section's prompt cache variable (`geekagent config`: `model.promptCacheKey`). */
export const promptCacheKeyEnvSetting: EnvSetting<PromptCacheKeyMode> = {
  key: 'model.promptCacheKey',
  variable: 'GEEKAGENT_PROMPT_CACHE_KEY',
  description: "send the session's prompt_cache_key: auto (api.openai.com only), 1 (always), 0 (never)",
  default: 'auto',
  parse: (raw) => {
    const text = raw.trim().toLowerCase();
    if (text === 'auto') return { ok: true, value: 'auto' };
    if (text === '1' || text === 'on' || text === 'true') return { ok: true, value: 'on' };
    if (text === '0' || text === 'off' || text === 'false') return { ok: true, value: 'off' };
    return {
      ok: false,
      problem: `GEEKAGENT_PROMPT_CACHE_KEY=${visibleLine(raw)} is not 1, 0 or auto: using auto (sent to api.openai.com only)`,
    };
  },
};

/** `GEEKAGENT_PROMPT_CACHE_KEY`: 1/on/true, 0/off/false, unset/auto; anything else is auto with a problem. */
export function promptCacheKeyMode(env: NodeJS.ProcessEnv): { mode: PromptCacheKeyMode; problem?: string } {
  const read = readEnvSetting(promptCacheKeyEnvSetting, env);
  return read.problem !== undefined ? { mode: read.value, problem: read.problem } : { mode: read.value };
}

/** Whether requests to `baseURL` carry the key under `mode`. */
export function sendsPromptCacheKey(baseURL: string, mode: PromptCacheKeyMode = 'auto'): boolean {
  if (mode !== 'auto') return mode === 'on';
  try {
    const url = new URL(baseURL);
    return url.protocol === 'https:' && ACCEPTING_HOSTS.has(url.hostname.toLowerCase());
  } catch {
    return false;
  }
}
