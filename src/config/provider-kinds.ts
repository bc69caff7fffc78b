/**
 * The model APIs GeekAgent speaks natively. `openai` is Chat Completions (OpenAI and every
 * compatible server); the others are each vendor's own API on its own SDK.
 */
export const PROVIDER_KINDS = ['openai', 'anthropic', 'openai-responses', 'gemini'] as const;

export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export function isProviderKind(value: string): value is ProviderKind {
  return (PROVIDER_KINDS as readonly string[]).includes(value);
}
