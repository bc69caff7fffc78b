/**
 * The OpenAI Responses provider (placeholder until it is built on its official SDK, loaded only when used).
 */
import type { ModelSettings } from '../../config/model-settings.js';
import { modelAcceptsMedia } from '../../config/model-settings.js';
import type { ProviderOptions } from '../openai.js';
import { type ChatProvider, type ChatRound, ProviderError } from '../types.js';

export class ResponsesProvider implements ChatProvider {
  readonly name = 'openai-responses';
  readonly model: string;
  readonly contextWindow: number;
  readonly acceptsMedia: boolean;

  constructor(settings: ModelSettings, _options: ProviderOptions = {}) {
    this.model = settings.model;
    this.contextWindow = settings.contextWindow;
    this.acceptsMedia = settings.acceptsMedia ?? modelAcceptsMedia(settings.model);
  }

  async complete(): Promise<ChatRound> {
    throw new ProviderError('the openai-responses provider is not built yet');
  }
}
