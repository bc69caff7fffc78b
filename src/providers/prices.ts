/**
 * What a model's tokens cost, for the `total_cost_usd` and `modelUsage` of print mode's result:
 * a small table of list prices (USD per million tokens) of well-known models, matched by the
 * longest prefix of the model id. A model not in it (a local one, a router's own name) costs 0:
 * the figure is an estimate to compare runs, never a bill.
 */
import type { Usage } from './messages.js';

interface Price {
  /** Input tokens not read from the cache. */
  input: number;
  output: number;
  /** Input tokens read from the provider's prompt cache. */
  cacheRead: number;
}

/** List prices as published by each provider (late 2025), standard tier, short prompts. */
const PRICES: Readonly<Record<string, Price>> = {
  'claude-opus-4-5': { input: 5, output: 25, cacheRead: 0.5 },
  'claude-opus-4': { input: 15, output: 75, cacheRead: 1.5 },
  'claude-sonnet-4': { input: 3, output: 15, cacheRead: 0.3 },
  'claude-3-7-sonnet': { input: 3, output: 15, cacheRead: 0.3 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cacheRead: 0.08 },
  'gpt-5': { input: 1.25, output: 10, cacheRead: 0.125 },
  'gpt-5-mini': { input: 0.25, output: 2, cacheRead: 0.025 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cacheRead: 0.005 },
  'gpt-4.1': { input: 2, output: 8, cacheRead: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cacheRead: 0.025 },
  'gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075 },
  o3: { input: 2, output: 8, cacheRead: 0.5 },
  'o3-mini': { input: 1.1, output: 4.4, cacheRead: 0.55 },
  'o4-mini': { input: 1.1, output: 4.4, cacheRead: 0.275 },
  'deepseek-chat': { input: 0.28, output: 0.42, cacheRead: 0.028 },
  'deepseek-reasoner': { input: 0.28, output: 0.42, cacheRead: 0.028 },
  'gemini-2.5-pro': { input: 1.25, output: 10, cacheRead: 0.125 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5, cacheRead: 0.03 },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4, cacheRead: 0.01 },
};

/** The price of `model` (a router's `vendor/model` read by its last part), or undefined. */
function priceOf(model: string): Price | undefined {
  const id = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
  let best: string | undefined;
  for (const prefix of Object.keys(PRICES)) {
    if (id.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = prefix;
  }
  return best === undefined ? undefined : PRICES[best];
}

/** What `usage` of `model` costs in USD at list price; 0 for a model the table does not know. */
export function costUsd(model: string, usage: Usage | undefined): number {
  const price = priceOf(model);
  if (!price || !usage) return 0;
  const cached = usage.cachedInputTokens ?? 0;
  const fresh = Math.max(0, usage.inputTokens - cached);
  return (fresh * price.input + cached * price.cacheRead + usage.outputTokens * price.output) / 1_000_000;
}
