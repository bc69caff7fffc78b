/**
 * Whether a request carries the session's `prompt_cache_key` (OpenAI routes requests with the same
 * key to the same prompt cache, as Codex sends it). OpenAI's own API accepts the field; a
 * compatible server may reject a field it does not know (HTTP 400), so elsewhere it is sent only
 * when the person turns it on: `GEEKAGENT_PROMPT_CACHE_KEY=1` (always) or `0` (never).
 */
import { visibleLine } from '../util/terminal-text.js';

export type PromptCacheKeyMode = 'auto' | 'on' | 'off';

/** The hosts that accept `prompt_cache_key` without being asked to send it. */
const ACCEPTING_HOSTS = new Set(['api.openai.com']);

/** `GEEKAGENT_PROMPT_CACHE_KEY`: 1/on/true, 0/off/false, unset/auto; anything else is auto with a problem. */
export function promptCacheKeyMode(env: NodeJS.ProcessEnv): { mode: PromptCacheKeyMode; problem?: string } {
  const raw = env.GEEKAGENT_PROMPT_CACHE_KEY?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === 'auto') return { mode: 'auto' };
  if (raw === '1' || raw === 'on' || raw === 'true') return { mode: 'on' };
  if (raw === '0' || raw === 'off' || raw === 'false') return { mode: 'off' };
  return {
    mode: 'auto',
    problem: `GEEKAGENT_PROMPT_CACHE_KEY=${visibleLine(env.GEEKAGENT_PROMPT_CACHE_KEY ?? '')} is not 1, 0 or auto: using auto (sent to api.openai.com only)`,
  };
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
