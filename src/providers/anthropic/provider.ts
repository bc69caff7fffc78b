/**
 * The Anthropic Messages provider (GEEKAGENT_PROVIDER=anthropic) on the official
 * @anthropic-ai/sdk. This module is SDK-free: the SDK and the client (`request.ts`) load on the
 * first request or `prepare()`, so a run on another provider never reads it.
 */
import type { ModelSettings } from '../../config/model-settings.js';
import { LazyProvider } from '../lazy-provider.js';
import type { ProviderOptions } from '../openai.js';

export class AnthropicProvider extends LazyProvider {
  constructor(settings: ModelSettings, options: ProviderOptions = {}) {
    super(
      'anthropic',
      settings,
      options,
      async (init) => new (await import('./request.js')).AnthropicRequester(init),
    );
  }
}
