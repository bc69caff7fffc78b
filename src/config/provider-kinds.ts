/**
 * The model APIs GeekAgent speaks natively: one per spec in providers/specs.ts. `openai` is Chat
 * Completions (OpenAI and every compatible server); the others are each vendor's own API on its
 * own SDK.
 */
import { PROVIDER_KINDS, type ProviderKind } from '../providers/specs.js';

export { PROVIDER_KINDS, type ProviderKind };

export function isProviderKind(value: string): value is ProviderKind {
  return (PROVIDER_KINDS as readonly string[]).includes(value);
}
