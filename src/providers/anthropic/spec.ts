/** The Anthropic Messages API (`anthropic`) on @anthropic-ai/sdk. */
import type { ProviderSpec } from '../provider-spec.js';

export const ANTHROPIC = {
  kind: 'anthropic',
  env: {
    key: 'ANTHROPIC_API_KEY',
    baseURL: 'ANTHROPIC_BASE_URL',
    model: 'ANTHROPIC_MODEL',
    defaultBaseURL: 'https://api.anthropic.com',
    defaultModel: 'claude-sonnet-4-5',
  },
  contextWindows: [[/claude/, 200_000]],
  mediaModels: [/claude/],
  // 5 MB per image (of its base64 data); JPEG, PNG, GIF, WEBP.
  imageLimits: {
    types: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
    maxBytes: 5 * 1024 * 1024,
    measure: 'base64',
    label: 'Anthropic takes images up to 5 MB (base64)',
  },
  sdk: { bundle: 'anthropic', packages: ['@anthropic-ai/sdk'] },
  load: async () => (await import('./request.js')).AnthropicRequester,
} as const satisfies ProviderSpec;
