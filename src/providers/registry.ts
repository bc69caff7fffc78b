/**
 * Makes the provider that `settings.provider` names. Each provider's module here is small: its
 * SDK is imported on its first request, so a run loads only the SDK of the API it talks to.
 */
import type { ModelSettings } from '../config/model-settings.js';
import { isProviderKind } from '../config/provider-kinds.js';
import { AnthropicProvider } from './anthropic/provider.js';
import { GeminiProvider } from './gemini/provider.js';
import { OpenAIChatProvider, type ProviderOptions, preloadOpenAI } from './openai.js';
import { ResponsesProvider } from './responses/provider.js';
import type { ChatProvider } from './types.js';

export function createProvider(settings: ModelSettings, options: ProviderOptions = {}): ChatProvider {
  switch (settings.provider) {
    case 'openai':
      return new OpenAIChatProvider(settings, options);
    case 'anthropic':
      return new AnthropicProvider(settings, options);
    case 'openai-responses':
      return new ResponsesProvider(settings, options);
    case 'gemini':
      return new GeminiProvider(settings, options);
  }
}

/**
 * Starts loading the SDK of the provider a run names (flag or GEEKAGENT_PROVIDER; default openai)
 * before its settings are resolved: a run loads only its own provider's SDK. An unknown name
 * loads nothing (settings then report it).
 */
export function preloadProvider(name: string | undefined): void {
  const kind = name?.trim() || 'openai';
  if (!isProviderKind(kind)) return;
  if (kind === 'openai') preloadOpenAI();
  else if (kind === 'gemini') import('./gemini/request.js').catch(() => undefined);
  else if (kind === 'anthropic') import('./anthropic/request.js').catch(() => undefined);
  else import('./responses/request.js').catch(() => undefined);
}
