/**
 * The Gemini provider (GEEKAGENT_PROVIDER=gemini) on Google's official @google/genai SDK. This
 * class is small and imports no SDK: `request.ts` (and with it the SDK, google-auth-library, ws)
 * is loaded on the first request, so a run on another provider never reads the Gemini bundle.
 */
import type { ModelSettings } from '../../config/model-settings.js';
import { LazyProvider } from '../lazy-provider.js';
import type { ProviderOptions } from '../openai.js';

export class GeminiProvider extends LazyProvider {
  constructor(settings: ModelSettings, options: ProviderOptions = {}) {
    super(
      'gemini',
      settings,
      options,
      async (init) => new (await import('./request.js')).GeminiRequester(init),
    );
  }
}
