/**
 * The Gemini API (`gemini`) on Google's @google/genai (its bundle also holds google-auth-library,
 * ws and p-retry: read only on this provider).
 */
import type { ProviderSpec } from '../provider-spec.js';

export const GEMINI = {
  kind: 'gemini',
  env: {
    key: 'GEMINI_API_KEY',
    baseURL: 'GOOGLE_GEMINI_BASE_URL',
    model: 'GEMINI_MODEL',
    defaultBaseURL: 'https://generativelanguage.googleapis.com',
    defaultModel: 'gemini-2.5-flash',
  },
  contextWindows: [[/gemini/, 1_048_576]],
  mediaModels: [/gemini/],
  // Inline data: the whole request at most 20 MB; no GIF.
  imageLimits: {
    types: ['image/png', 'image/jpeg', 'image/webp'],
    maxBytes: 20 * 1024 * 1024,
    measure: 'base64',
    perRequest: true,
    label: 'Gemini takes inline images up to 20 MB per request',
  },
  sdk: { bundle: 'genai', packages: ['@google/genai'] },
  load: async () => (await import('./request.js')).GeminiRequester,
} as const satisfies ProviderSpec;
