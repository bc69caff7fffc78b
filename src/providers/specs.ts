/**
 * The one list of providers: a provider is its folder (spec.ts, request.ts — its SDK side —, …) and its
 * line here. Provider kinds (config/provider-kinds.ts), model settings' variables, defaults,
 * context windows and media check (config/model-settings.ts), image limits, the registry and the
 * SDK bundles (scripts/bundle.mjs reads dist/providers/specs.js) all come from this list. The
 * order is `--provider`'s list in messages and the order model tables are read in.
 */
import { ANTHROPIC } from './anthropic/spec.js';
import { GEMINI } from './gemini/spec.js';
import { OPENAI_CHAT } from './openai-chat/spec.js';
import type { ProviderSpec } from './provider-spec.js';
import { OPENAI_RESPONSES } from './responses/spec.js';

export const PROVIDER_SPECS = [OPENAI_CHAT, ANTHROPIC, OPENAI_RESPONSES, GEMINI] as const;

type Specs = typeof PROVIDER_SPECS;

type KindsOf<T extends readonly unknown[]> = {
  readonly [I in keyof T]: T[I] extends { kind: infer K } ? K : never;
};

/** Each spec's kind, as a tuple (zod's enum takes one). */
export const PROVIDER_KINDS = PROVIDER_SPECS.map((spec) => spec.kind) as unknown as KindsOf<Specs>;

export type ProviderKind = Specs[number]['kind'];

/** The spec of a kind. */
export function specOf<K extends ProviderKind>(kind: K): Extract<Specs[number], { kind: K }> {
  return PROVIDER_SPECS.find((spec) => spec.kind === kind) as Extract<Specs[number], { kind: K }>;
}

/**
 * Open-weight families that compatible servers serve, no vendor's API of their own: read after
 * every spec's table (their names are the least specific).
 */
const OPEN_MODEL_WINDOWS: ProviderSpec['contextWindows'] = [
  [/deepseek/, 128_000],
  [/qwen/, 131_072],
  [/llama/, 131_072],
  [/mistral|mixtral/, 32_768],
];
const OPEN_MEDIA_MODELS: ProviderSpec['mediaModels'] = [/qwen-vl|llava/];

/** Every known model family's context window, in the order they are tried (first match wins). */
export const MODEL_CONTEXT_WINDOWS: ProviderSpec['contextWindows'] = [
  ...PROVIDER_SPECS.flatMap((spec): ProviderSpec['contextWindows'] => spec.contextWindows),
  ...OPEN_MODEL_WINDOWS,
];

/** Every model family known to take image input. */
export const MEDIA_MODELS: ProviderSpec['mediaModels'] = [
  ...PROVIDER_SPECS.flatMap((spec): ProviderSpec['mediaModels'] => spec.mediaModels),
  ...OPEN_MEDIA_MODELS,
];
