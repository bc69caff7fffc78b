/**
 * Resolves which model endpoint to talk to (env, `.env`, CLI flags) and what is known about the
 * model: context window, retry budget, idle timeout, whether tool results may carry images to it.
 * A numeric variable that is set but not a number in range stops start-up with a message naming it.
 */

export interface ModelSettings {
  baseURL: string;
  apiKey: string | undefined;
  model: string;
  contextWindow: number;
  maxRetries: number;
  /**
   * A model request that receives no bytes for this long fails (GEEKAGENT_REQUEST_TIMEOUT, given in
   * seconds); default DEFAULT_REQUEST_TIMEOUT_MS.
   */
  requestTimeoutMs?: number;
  /** From `GEEKAGENT_ACCEPTS_MEDIA` or the model name; undefined means "decide from the model name". */
  acceptsMedia?: boolean;
}

export const DEFAULT_BASE_URL = 'https://api.deepseek.com';
export const DEFAULT_MODEL = 'deepseek-v4-flash';
export const DEFAULT_CONTEXT_WINDOW = 128_000;
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

/** Node's timers take at most 2^31-1 ms; a longer delay silently fires after 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;
const MAX_CONTEXT_WINDOW = 100_000_000;
const MAX_RETRIES = 100;

/** A setting that is present but unusable: the message names the variable, the range and the value. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

export const MISSING_KEY_MESSAGE =
  'OPENAI_API_KEY is not set: export it or add it to .env (see .env.example)';

// First match wins, so more specific families come before the ones they would otherwise hit.
const CONTEXT_WINDOWS: ReadonlyArray<readonly [RegExp, number]> = [
  [/gpt-4\.1/, 1_047_576],
  [/gpt-4o/, 128_000],
  [/gpt-5/, 400_000],
  [/(^|\/)o[134](-|$)/, 200_000],
  [/claude/, 200_000],
  [/gemini/, 1_048_576],
  [/deepseek/, 128_000],
  [/qwen/, 131_072],
  [/llama/, 131_072],
  [/mistral|mixtral/, 32_768],
];

const MEDIA_MODELS = /gpt-4o|gpt-4\.1|gpt-5|claude|gemini|qwen-vl|llava/;

export function resolveModelSettings(
  env: NodeJS.ProcessEnv,
  flags: { model?: string; baseURL?: string },
): ModelSettings {
  const model = nonEmpty(flags.model) ?? nonEmpty(env.OPENAI_MODEL) ?? DEFAULT_MODEL;
  return {
    baseURL: nonEmpty(flags.baseURL) ?? nonEmpty(env.OPENAI_BASE_URL) ?? DEFAULT_BASE_URL,
    apiKey: nonEmpty(env.OPENAI_API_KEY),
    model,
    contextWindow:
      wholeNumber(env, 'GEEKAGENT_CONTEXT_WINDOW', 1, MAX_CONTEXT_WINDOW) ?? knownContextWindow(model),
    maxRetries: wholeNumber(env, 'GEEKAGENT_MAX_RETRIES', 0, MAX_RETRIES) ?? DEFAULT_MAX_RETRIES,
    requestTimeoutMs: requestTimeout(env) ?? DEFAULT_REQUEST_TIMEOUT_MS,
    acceptsMedia: mediaOverride(env.GEEKAGENT_ACCEPTS_MEDIA) ?? modelAcceptsMedia(model),
  };
}

export function knownContextWindow(model: string): number {
  const name = model.toLowerCase();
  return CONTEXT_WINDOWS.find(([pattern]) => pattern.test(name))?.[1] ?? DEFAULT_CONTEXT_WINDOW;
}

/** Whether the model family is known to take image input. */
export function modelAcceptsMedia(model: string): boolean {
  return MEDIA_MODELS.test(model.toLowerCase());
}

function mediaOverride(value: string | undefined): boolean | undefined {
  const text = value?.trim();
  if (text === '1') return true;
  if (text === '0') return false;
  return undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text ? text : undefined;
}

/** The integer in `env[name]`, undefined when unset or empty (the default applies). */
function wholeNumber(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (n >= min && n <= max) return n;
  throw new SettingsError(
    `${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`,
  );
}

/** GEEKAGENT_REQUEST_TIMEOUT: seconds (decimals allowed), as milliseconds. */
function requestTimeout(env: NodeJS.ProcessEnv): number | undefined {
  const text = env.GEEKAGENT_REQUEST_TIMEOUT?.trim();
  if (!text) return undefined;
  const ms = /^\d+(\.\d+)?$/.test(text) ? Math.round(Number(text) * 1000) : Number.NaN;
  if (ms >= 1 && ms <= MAX_TIMER_MS) return ms;
  throw new SettingsError(
    `GEEKAGENT_REQUEST_TIMEOUT must be a number of seconds from 0.001 to ${Math.floor(MAX_TIMER_MS / 1000)}, got ${JSON.stringify(text)}`,
  );
}
