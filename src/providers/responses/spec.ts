/**
 * The OpenAI Responses API (`openai-responses`; OPENAI_* variables) on the openai SDK, for the
 * models OpenAI serves there (gpt-5 and its reasoning kin). Its model families are the Chat
 * Completions spec's (the same vendor's).
 */
import type { ProviderSpec } from '../provider-spec.js';

export const OPENAI_RESPONSES = {
  kind: 'openai-responses',
  env: {
    key: 'OPENAI_API_KEY',
    baseURL: 'OPENAI_BASE_URL',
    model: 'OPENAI_MODEL',
    defaultBaseURL: 'https://api.openai.com/v1',
    defaultModel: 'gpt-5.1',
  },
  contextWindows: [],
  mediaModels: [],
  // 20 MB per image; PNG, JPEG, WEBP and non-animated GIF.
  imageLimits: {
    types: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
    maxBytes: 20 * 1024 * 1024,
    measure: 'file',
    label: 'OpenAI takes images up to 20 MB',
  },
  sdk: { bundle: 'openai', packages: ['openai'] },
  load: async () => (await import('./request.js')).ResponsesRequester,
} as const satisfies ProviderSpec;
