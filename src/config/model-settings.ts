/**
 * Resolves which model API and endpoint to talk to (env, `.env`, CLI flags) and what is known
 * about the model: context window, retry budget, idle timeout, whether tool results may carry
 * images to it. Each provider reads its own ecosystem's variables (PROVIDER_ENV); the variables,
 * defaults and model tables are the providers' specs (providers/specs.ts). A variable that is set
 * but unusable stops start-up with a message naming it. Each value's source (flag, variable, `.env`,
 * models.json entry, default) is kept for `geekagent config` (resolveModelSettingsWithSources).
 */
import type { ProviderEnv } from '../providers/provider-spec.js';
import { MEDIA_MODELS, MODEL_CONTEXT_WINDOWS, PROVIDER_SPECS } from '../providers/specs.js';
import type { SettingSource } from '../settings/section.js';
import type { NamedModel } from './named-models.js';
import { isProviderKind, PROVIDER_KINDS, type ProviderKind } from './provider-kinds.js';

export interface ModelSettings {
  /** Which API: GEEKAGENT_PROVIDER or `--provider`; default `openai` (Chat Completions). */
  provider: ProviderKind;
  /** The models.json name these settings came from (`--model NAME`, `/model NAME`), if any. */
  name?: string;
  /** The variable the key is read from, named in the "not set" and HTTP 401 messages. */
  keyVariable: string;
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
  /** GEEKAGENT_THINKING_BUDGET: extended-thinking tokens per reply (0 = off); undefined: the provider's default. */
  thinkingBudget?: number;
}

/** Chat Completions' defaults (the default provider): DeepSeek's endpoint and model. */
export const DEFAULT_BASE_URL = PROVIDER_SPECS[0].env.defaultBaseURL;
export const DEFAULT_MODEL = PROVIDER_SPECS[0].env.defaultModel;
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

/** Each provider's own variables and defaults, from its spec. */
export const PROVIDER_ENV: Readonly<Record<ProviderKind, ProviderEnv>> = Object.fromEntries(
  PROVIDER_SPECS.map((spec) => [spec.kind, spec.env]),
) as Record<ProviderKind, ProviderEnv>;

/** GEEKAGENT_PROVIDER or the flag; an unknown name stops start-up naming the ones there are. */
export function resolveProviderKind(env: NodeJS.ProcessEnv, flag: string | undefined): ProviderKind {
  const fromFlag = nonEmpty(flag);
  const text = fromFlag ?? nonEmpty(env.GEEKAGENT_PROVIDER);
  if (text === undefined) return 'openai';
  if (isProviderKind(text)) return text;
  const source = fromFlag !== undefined ? '--provider' : 'GEEKAGENT_PROVIDER';
  throw new SettingsError(
    `${source} must be one of ${PROVIDER_KINDS.join(', ')}, got ${JSON.stringify(text)}`,
  );
}

/** Where each of a run's model settings came from (`geekagent config`). */
export type ModelSettingSources = Record<
  | 'provider'
  | 'model'
  | 'baseURL'
  | 'apiKey'
  | 'contextWindow'
  | 'maxRetries'
  | 'requestTimeoutMs'
  | 'acceptsMedia'
  | 'thinkingBudget',
  SettingSource
>;

/**
 * The settings of a run. `flags.model` names an entry of models.json first (its provider, model,
 * base URL, key variable, window and media apply; `--provider` and `--base-url` still override),
 * else it is a plain model id for the chosen provider.
 */
export function resolveModelSettings(
  env: NodeJS.ProcessEnv,
  flags: { model?: string; baseURL?: string; provider?: string },
  named: ReadonlyMap<string, NamedModel> = new Map(),
  /** Where `named` was read from, named when an entry is refused. */
  modelsFile = 'models.json',
): ModelSettings {
  return resolveModelSettingsWithSources(env, flags, named, modelsFile).settings;
}

/**
 * resolveModelSettings, with each value's source. `envSource` says where a variable's value came
 * from (settings/env.ts: the real environment or a trusted `.env`).
 */
export function resolveModelSettingsWithSources(
  env: NodeJS.ProcessEnv,
  flags: { model?: string; baseURL?: string; provider?: string },
  named: ReadonlyMap<string, NamedModel> = new Map(),
  modelsFile = 'models.json',
  envSource: (variable: string) => SettingSource = (variable) => ({ kind: 'env', variable }),
): { settings: ModelSettings; sources: ModelSettingSources } {
  const flagModel = nonEmpty(flags.model);
  const entry = flagModel === undefined ? undefined : named.get(flagModel);
  const flagProvider = nonEmpty(flags.provider);
  const provider =
    flagProvider === undefined && entry ? entry.provider : resolveProviderKind(env, flags.provider);
  const names = PROVIDER_ENV[provider];
  if (entry && flagModel !== undefined && nonEmpty(flags.baseURL) === undefined)
    refuseKeyElsewhere(env, provider, flagModel, entry, modelsFile);
  const fromEntry = (key: string): SettingSource => ({
    kind: 'file',
    scope: 'user',
    file: modelsFile,
    key: `models.${flagModel}.${key}`,
  });
  const fromVariable = (variable: string): SettingSource =>
    nonEmpty(env[variable]) !== undefined ? envSource(variable) : { kind: 'default' };
  const keyVariable = entry?.keyVariable ?? names.key;
  const model = entry?.model ?? flagModel ?? nonEmpty(env[names.model]) ?? names.defaultModel;
  const windowFromEnv = wholeNumber(env, 'GEEKAGENT_CONTEXT_WINDOW', 1, MAX_CONTEXT_WINDOW);
  const mediaFromEnv = mediaOverride(env.GEEKAGENT_ACCEPTS_MEDIA);
  const settings: ModelSettings = {
    provider,
    ...(entry ? { name: flagModel } : {}),
    keyVariable,
    baseURL:
      nonEmpty(flags.baseURL) ?? entry?.baseURL ?? nonEmpty(env[names.baseURL]) ?? names.defaultBaseURL,
    apiKey: nonEmpty(env[keyVariable]),
    model,
    contextWindow: entry?.contextWindow ?? windowFromEnv ?? knownContextWindow(model),
    maxRetries: wholeNumber(env, 'GEEKAGENT_MAX_RETRIES', 0, MAX_RETRIES) ?? DEFAULT_MAX_RETRIES,
    requestTimeoutMs: requestTimeout(env) ?? DEFAULT_REQUEST_TIMEOUT_MS,
    acceptsMedia: entry?.media ?? mediaFromEnv ?? modelAcceptsMedia(model),
    thinkingBudget: wholeNumber(env, 'GEEKAGENT_THINKING_BUDGET', 0, 1_000_000),
  };
  const sources: ModelSettingSources = {
    provider:
      flagProvider !== undefined
        ? { kind: 'cli', flag: '--provider' }
        : entry
          ? fromEntry('provider')
          : fromVariable('GEEKAGENT_PROVIDER'),
    model: entry
      ? fromEntry('model')
      : flagModel !== undefined
        ? { kind: 'cli', flag: '--model' }
        : fromVariable(names.model),
    baseURL:
      nonEmpty(flags.baseURL) !== undefined
        ? { kind: 'cli', flag: '--base-url' }
        : entry?.baseURL !== undefined
          ? fromEntry('baseURL')
          : fromVariable(names.baseURL),
    apiKey: fromVariable(keyVariable),
    contextWindow:
      entry?.contextWindow !== undefined
        ? fromEntry('contextWindow')
        : fromVariable('GEEKAGENT_CONTEXT_WINDOW'),
    maxRetries: fromVariable('GEEKAGENT_MAX_RETRIES'),
    requestTimeoutMs: fromVariable('GEEKAGENT_REQUEST_TIMEOUT'),
    acceptsMedia:
      entry?.media !== undefined
        ? fromEntry('media')
        : mediaFromEnv !== undefined
          ? envSource('GEEKAGENT_ACCEPTS_MEDIA')
          : { kind: 'default' },
    thinkingBudget: fromVariable('GEEKAGENT_THINKING_BUDGET'),
  };
  return { settings, sources };
}

/**
 * `/model NAME` mid-session: a models.json entry as a whole (the run's flags were for the model it
 * started on), else the same provider, endpoint and key with another model id.
 */
export function switchedModelSettings(
  env: NodeJS.ProcessEnv,
  current: ModelSettings,
  name: string,
  named: ReadonlyMap<string, NamedModel>,
  modelsFile?: string,
): ModelSettings {
  if (named.has(name)) return resolveModelSettings(env, { model: name }, named, modelsFile);
  const { name: _previous, ...rest } = current;
  return {
    ...rest,
    model: name,
    contextWindow:
      wholeNumber(env, 'GEEKAGENT_CONTEXT_WINDOW', 1, MAX_CONTEXT_WINDOW) ?? knownContextWindow(name),
    acceptsMedia: mediaOverride(env.GEEKAGENT_ACCEPTS_MEDIA) ?? modelAcceptsMedia(name),
  };
}

/**
 * A models.json entry with its own `baseURL` and no `keyVariable` would get the provider's own key
 * (OPENAI_API_KEY, …): only where that key already goes — the provider's default endpoint or the
 * one its base-URL variable names, same scheme, host and port. Anywhere else (a loopback server
 * too: whatever listens there would get the key) it must name its key's variable.
 */
function refuseKeyElsewhere(
  env: NodeJS.ProcessEnv,
  provider: ProviderKind,
  name: string,
  entry: NamedModel,
  modelsFile: string,
): void {
  if (entry.baseURL === undefined || entry.keyVariable !== undefined) return;
  const names = PROVIDER_ENV[provider];
  const own = [names.defaultBaseURL, nonEmpty(env[names.baseURL])].map(originOf);
  const origin = originOf(entry.baseURL);
  if (origin !== undefined && own.includes(origin)) return;
  throw new SettingsError(
    `${modelsFile}: model ${JSON.stringify(name)} has its own baseURL (${origin ?? 'not a URL'}) but no ` +
      `keyVariable, and GeekAgent does not send ${names.key} to a server other than the one it is for. ` +
      `Add "keyVariable": "<VARIABLE>" to that entry, naming the variable that holds this server's key ` +
      `(a server that needs no key: any variable set to any text, e.g. LOCAL_LLM_KEY=none)`,
  );
}

/** `https://host:port` of a URL; undefined when it is not one. */
function originOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? undefined : parsed.origin;
  } catch {
    return undefined;
  }
}

export function knownContextWindow(model: string): number {
  const name = model.toLowerCase();
  return MODEL_CONTEXT_WINDOWS.find(([pattern]) => pattern.test(name))?.[1] ?? DEFAULT_CONTEXT_WINDOW;
}

/** Whether the model family is known to take image input. */
export function modelAcceptsMedia(model: string): boolean {
  const name = model.toLowerCase();
  return MEDIA_MODELS.some((pattern) => pattern.test(name));
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
