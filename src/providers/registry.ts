/**
 * Makes the provider that `settings.provider` names, from its spec (providers/specs.ts): every
 * provider is a `LazyProvider` whose SDK side (the folder's `request.ts`) is imported on its first
 * request, so a run loads only the SDK of the API it talks to.
 */
import type { ModelSettings } from '../config/model-settings.js';
import { isProviderKind } from '../config/provider-kinds.js';
import { LazyProvider, type ProviderOptions } from './lazy-provider.js';
import { specOf } from './specs.js';
import type { ChatProvider } from './types.js';

export type { ProviderOptions };

export function createProvider(settings: ModelSettings, options: ProviderOptions = {}): ChatProvider {
  return new LazyProvider(specOf(settings.provider), settings, options);
}

/**
 * Starts loading the SDK of the provider a run names (flag or GEEKAGENT_PROVIDER; default openai)
 * before its settings are resolved: a run loads only its own provider's SDK. An unknown name
 * loads nothing (settings then report it).
 */
export function preloadProvider(name: string | undefined): void {
  const kind = name?.trim() || 'openai';
  if (!isProviderKind(kind)) return;
  specOf(kind)
    .load()
    .catch(() => undefined);
}
