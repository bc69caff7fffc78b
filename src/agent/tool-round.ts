/**
 * One round's tool calls: all start at once, except calls that declare the same exclusive key
 * (two edits of one file), which run one after another in the model's order — so the second
 * patch reads what the first wrote instead of both reading the old text and one edit being lost.
 */
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolCall, ToolCallOutcome } from '../tools/types.js';

export async function runToolRound(
  calls: readonly ToolCall[],
  registry: ToolRegistry,
  root: string,
  run: (call: ToolCall) => Promise<ToolCallOutcome>,
): Promise<ToolCallOutcome[]> {
  const chains = new Map<string, Promise<unknown>>();
  return Promise.all(
    calls.map((call) => {
      const key = exclusiveKeyOf(call, registry, root);
      if (key === undefined) return run(call);
      const result = (chains.get(key) ?? Promise.resolve()).then(() => run(call));
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
