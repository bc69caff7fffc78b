/**
 * One round's tool calls: they start together (at most `limit` running at once, the rest queue),
 * except calls that declare the same exclusive key (two edits of one file), which run one after
 * another in the model's order — so the second patch reads what the first wrote instead of both
 * reading the old text and one edit being lost. A call waiting for its key holds no slot.
 */
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolCall, ToolCallOutcome } from '../tools/types.js';
import { Limiter } from '../util/limiter.js';

export interface ToolRound {
  calls: readonly ToolCall[];
  registry: ToolRegistry;
  root: string;
  /** Calls running at once. */
  limit: number;
}

export async function runToolRound(
  { calls, registry, root, limit }: ToolRound,
  run: (call: ToolCall) => Promise<ToolCallOutcome>,
): Promise<ToolCallOutcome[]> {
  const slots = new Limiter(limit);
  const inSlot = (call: ToolCall) => slots.run(() => run(call));
  const chains = new Map<string, Promise<unknown>>();
  return Promise.all(
    calls.map((call) => {
      const key = exclusiveKeyOf(call, registry, root);
      if (key === undefined) return inSlot(call);
      const result = (chains.get(key) ?? Promise.resolve()).then(() => inSlot(call));
      chains.set(
        key,
        result.catch(() => undefined),
      );
      return result;
    }),
  );
}

/** The call's exclusive key; a tool that cannot tell (bad JSON, a throwing hook) gets none. */
export function exclusiveKeyOf(call: ToolCall, registry: ToolRegistry, root: string): string | undefined {
  const tool = registry.get(call.name);
  if (!tool?.exclusiveKey) return undefined;
  try {
    const args: unknown = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
    return tool.exclusiveKey(args as Record<string, unknown>, root);
  } catch {
    return undefined;
  }
}
