/**
 * The OpenAI Responses API provider (GEEKAGENT_PROVIDER=openai-responses; OPENAI_* variables), for
 * the models OpenAI serves on that API (gpt-5 and its reasoning kin). Like the Chat Completions
 * provider this class is SDK-free: `request.ts` (the openai client, already its own lazy bundle)
 * is imported on the first request or on `prepare()`, so constructing it costs nothing.
 */
import type { ModelSettings } from '../../config/model-settings.js';
import { LazyProvider } from '../lazy-provider.js';
import type { ProviderOptions } from '../openai.js';

export class ResponsesProvider extends LazyProvider {
  constructor(settings: ModelSettings, options: ProviderOptions = {}) {
    super(
      'openai-responses',
      settings,
      options,
      async (init) => new (await import('./request.js')).ResponsesRequester(init),
    );
  }
}
