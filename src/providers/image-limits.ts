/**
 * What each model API takes as an image the person attaches: the types and the largest size,
 * checked before a request is sent so a refusal names the file and the limit instead of failing
 * the whole turn with the API's 400.
 */
import type { ProviderKind } from '../config/provider-kinds.js';

export interface ImageLimits {
  /** MIME types the API accepts. */
  types: readonly string[];
  /** The largest image, in bytes of what is measured (`measure`). */
  maxBytes: number;
  /** Whether the limit counts the file's bytes or its base64 text (Anthropic counts the latter). */
  measure: 'file' | 'base64';
  /** The limit is for all of a request's images together (Gemini's inline data), not each. */
  perRequest?: boolean;
  /** Said in a note: where the limit comes from. */
  label: string;
}

const MB = 1024 * 1024;
const COMMON = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

const LIMITS: Record<ProviderKind, ImageLimits> = {
  // Chat Completions and Responses: 20 MB per image; PNG, JPEG, WEBP and non-animated GIF.
  openai: { types: COMMON, maxBytes: 20 * MB, measure: 'file', label: 'OpenAI takes images up to 20 MB' },
  'openai-responses': {
    types: COMMON,
    maxBytes: 20 * MB,
    measure: 'file',
    label: 'OpenAI takes images up to 20 MB',
  },
  // Messages API: 5 MB per image (of its base64 data); JPEG, PNG, GIF, WEBP.
  anthropic: {
    types: COMMON,
    maxBytes: 5 * MB,
    measure: 'base64',
    label: 'Anthropic takes images up to 5 MB (base64)',
  },
  // Inline data: the whole request at most 20 MB; no GIF.
  gemini: {
    types: ['image/png', 'image/jpeg', 'image/webp'],
    maxBytes: 20 * MB,
    measure: 'base64',
    perRequest: true,
    label: 'Gemini takes inline images up to 20 MB per request',
  },
};

export function imageLimits(kind: ProviderKind): ImageLimits {
  return LIMITS[kind];
}

/**
 * Why `bytes` bytes of `mimeType` cannot go to this API, or undefined when they can; `before`: the
 * bytes of the turn's images already attached (counted where the limit is per request).
 */
export function imageProblem(
  kind: ProviderKind,
  mimeType: string,
  bytes: number,
  before = 0,
): string | undefined {
  const limits = LIMITS[kind];
  if (!limits.types.includes(mimeType)) {
    const names = limits.types.map((type) => type.replace('image/', '')).join(', ');
    return `${mimeType} is not an image type this API takes (${names})`;
  }
  const measured = (count: number) => (limits.measure === 'base64' ? Math.ceil(count / 3) * 4 : count);
  const size = measured(bytes) + (limits.perRequest ? measured(before) : 0);
  if (size > limits.maxBytes) return `${formatMB(size)} is too large: ${limits.label}`;
  return undefined;
}

function formatMB(bytes: number): string {
  return `${(bytes / MB).toFixed(1)} MB`;
}
