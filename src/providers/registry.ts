/**
 * Makes the provider that `settings.provider` names. Each provider's module here is small: its
 * SDK is imported on its first request, so a run loads only the SDK of the API it talks to.
 */
import type { ModelSettings } from '../config/model-settings.js';
import { AnthropicProvider } from './anthropic/provider.js';
import { GeminiProvider } from './gemini/provider.js';
import { OpenAIChatProvider, type ProviderOptions } from './openai.js';
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
