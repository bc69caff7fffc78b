/**
 * Resolves which model endpoint to talk to (env, `.env`, CLI flags) and what is known about the
 * model: context window, retry budget, whether tool results may carry images to it.
 */

export interface ModelSettings {
  baseURL: string;
  apiKey: string | undefined;
  model: string;
  contextWindow: number;
  maxRetries: number;
  /** From `GEEKAGENT_ACCEPTS_MEDIA` or the model name; undefined means "decide from the model name". */
  acceptsMedia?: boolean;
}

export const DEFAULT_BASE_URL = 'https://api.deepseek.com';
export const DEFAULT_MODEL = 'deepseek-v4-flash';
export const DEFAULT_CONTEXT_WINDOW = 128_000;
export const DEFAULT_MAX_RETRIES = 2;

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
    contextWindow: positiveInt(env.GEEKAGENT_CONTEXT_WINDOW, 1) ?? knownContextWindow(model),
    maxRetries: positiveInt(env.GEEKAGENT_MAX_RETRIES, 0) ?? DEFAULT_MAX_RETRIES,
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

/** An integer ≥ `min` written in `value`, or undefined so the caller's default applies. */
function positiveInt(value: string | undefined, min: number): number | undefined {
  const text = value?.trim();
  if (!text || !/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= min ? n : undefined;
}
