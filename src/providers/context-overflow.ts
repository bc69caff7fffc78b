/**
 * Recognises "the request is longer than the model's context window" among failed requests, so
 * the agent can compact and retry once. Servers say it differently; each quirk names who sends it.
 */
import { APIError } from 'openai';
import { ContextOverflowError, ProviderError } from './types.js';

/** Error codes that mean overflow: OpenAI (`context_length_exceeded`), llama.cpp (`exceed_context_size_error`). */
const OVERFLOW_CODES = new Set([
  'context_length_exceeded',
  'exceed_context_size_error',
  'string_above_max_length',
]);

/**
 * Servers without a code only say it in words: DeepSeek and vLLM ("This model's maximum context
 * length is N tokens"), llama.cpp ("exceeds the available context size"), LM Studio, Together.
 */
const OVERFLOW_WORDS =
  /maximum context length|context length exceeded|context_length_exceeded|exceeds? the (available )?context (size|window)|too many tokens|prompt is too long|context window/i;

/** `mapped` (what the failure surfaces as), upgraded to a ContextOverflowError when `raw` says so. */
export function classifyOverflow(raw: unknown, mapped: unknown): unknown {
  if (!(mapped instanceof ProviderError) || mapped instanceof ContextOverflowError) return mapped;
  if (!(raw instanceof APIError)) return mapped;
  const status = raw.status;
  if (status !== undefined && status !== 400 && status !== 413 && status !== 422) return mapped;
  const code = typeof raw.code === 'string' ? raw.code : undefined;
  // An error event mid-stream has no status (openai 7 throws those as APIErrors too): one whose code
  // names another failure is that failure, whatever its words (`rate_limit_exceeded`, "Too many
  // tokens in flight").
  if (status === undefined && code !== undefined && !OVERFLOW_CODES.has(code)) return mapped;
  if ((code && OVERFLOW_CODES.has(code)) || OVERFLOW_WORDS.test(mapped.message)) {
    return new ContextOverflowError(mapped.message, mapped.status);
  }
  return mapped;
}
