/**
 * Chat Completions (`openai`, the default): OpenAI and every compatible server (DeepSeek — the
 * default endpoint —, Qwen, Ollama, vLLM, OpenRouter, …) on the openai SDK.
 */
import type { ProviderSpec } from '../provider-spec.js';

const MB = 1024 * 1024;

export const OPENAI_CHAT = {
  kind: 'openai',
  env: {
    key: 'OPENAI_API_KEY',
    baseURL: 'OPENAI_BASE_URL',
    model: 'OPENAI_MODEL',
    defaultBaseURL: 'https://api.deepseek.com',
    defaultModel: 'deepseek-v4-flash',
  },
  // OpenAI's own families (more specific first), then those compatible servers serve.
  contextWindows: [
    [/gpt-4\.1/, 1_047_576],
    [/gpt-4o/, 128_000],
    [/gpt-5/, 400_000],
    [/(^|\/)o[134](-|$)/, 200_000],
  ],
  mediaModels: [/gpt-4o|gpt-4\.1|gpt-5/],
  // 20 MB per image; PNG, JPEG, WEBP and non-animated GIF.
  imageLimits: {
    types: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
    maxBytes: 20 * MB,
    measure: 'file',
    label: 'OpenAI takes images up to 20 MB',
  },
  sdk: { bundle: 'openai', packages: ['openai'] },
  load: async () => (await import('./request.js')).OpenAIRequester,
} as const satisfies ProviderSpec;
