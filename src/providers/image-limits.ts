/**
 * What each model API takes as an image the person attaches: the types and the largest size,
 * checked before a request is sent so a refusal names the file and the limit instead of failing
 * the whole turn with the API's 400. The limits are each provider's spec's.
 */
import type { ProviderKind } from '../config/provider-kinds.js';
import type { ImageLimits } from './provider-spec.js';
import { specOf } from './specs.js';

export type { ImageLimits };

const MB = 1024 * 1024;

export function imageLimits(kind: ProviderKind): ImageLimits {
  return specOf(kind).imageLimits;
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
  const limits: ImageLimits = specOf(kind).imageLimits;
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
