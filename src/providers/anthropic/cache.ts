/**
 * Prompt-cache breakpoints: Anthropic caches nothing unless a request marks where a cacheable
 * prefix ends (`cache_control`), at most four per request. The stable prefix gets two (the last
 * stable tool — before any a tool search loaded, which join the end of the list mid-session, so the
 * tools before them still read from the cache — and the last system block), the
 * conversation two (the end of the latest message, so the next request reads all of this one, and
 * the end of the user turn before it, which the API's 20-block look-back may not reach after a
 * round of many tool results). Thinking blocks cannot carry one and are never the last block of
 * a user turn.
 */
import type {
  CacheControlEphemeral,
  MessageParam,
  TextBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { AnthropicToolDef } from './schema.js';

/** The API's limit. */
export const MAX_BREAKPOINTS = 4;

const EPHEMERAL: CacheControlEphemeral = { type: 'ephemeral' };

interface Cacheable {
  tools: Array<AnthropicToolDef & { cache_control?: CacheControlEphemeral }>;
  system: TextBlockParam[];
  messages: MessageParam[];
}

/**
 * Marks the breakpoints in place (on the request's own fresh copies) and returns how many. `stable`:
 * how many leading tools stay the same all session (default all).
 */
export function markBreakpoints(request: Cacheable, stable = request.tools.length): number {
  const marks: Array<{ cache_control?: CacheControlEphemeral | null }> = [];
  const lastTool = request.tools[Math.min(stable, request.tools.length) - 1];
  if (lastTool) marks.push(lastTool);
  const lastSystem = request.system.at(-1);
  if (lastSystem) marks.push(lastSystem);
  const userTurns = request.messages.filter((message) => message.role === 'user');
  for (const turn of [userTurns.at(-1), userTurns.at(-2)]) {
    const block = turn && lastBlock(turn);
    if (block) marks.push(block);
  }
  const used = marks.slice(0, MAX_BREAKPOINTS);
  for (const target of used) target.cache_control = EPHEMERAL;
  return used.length;
}

function lastBlock(message: MessageParam): { cache_control?: CacheControlEphemeral | null } | undefined {
  if (typeof message.content === 'string') {
    message.content = [{ type: 'text', text: message.content }];
  }
  const block = message.content.at(-1);
  if (!block || block.type === 'thinking' || block.type === 'redacted_thinking') return undefined;
  return block as { cache_control?: CacheControlEphemeral | null };
}
