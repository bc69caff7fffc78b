/**
 * Tool search as an extension: when MCP tool definitions would crowd the context (deferred-tools.ts
 * decides), they are left out of each request; the model gets the built-in `tool_search` tool and
 * a system-prompt section listing the names of every tool it covers (the same list all session). A
 * search loads the tools it finds: from the next request on they are declared in the tool list
 * (a model can only call a declared tool), after every other tool in load order, so the list before
 * them — and the provider's prompt cache of it where the cache covers the tools — holds. A deferred
 * tool called by name anyway (a model that names a tool it was not given) runs and is declared from
 * then on too. After `--continue` the loaded set is recomputed from the history (the tools it
 * called and the names its searches returned).
 */
import type { HistoryMessage } from '../../agent/history.js';
import { type EnvSetting, readEnvSetting } from '../../settings/env-setting.js';
import { toolArguments } from '../../tools/arguments.js';
import { outputToText, type Tool, ToolError } from '../../tools/types.js';
import * as z from '../../util/schema.js';
import { visibleLine } from '../../util/terminal-text.js';
import {
  DEFER_SHARE,
  type DeferredTools,
  TOOL_SEARCH,
  type ToolSearchMode,
  withoutServerTag,
} from '../deferred-tools.js';

export { TOOL_SEARCH };

import { type Extension, PROMPT_ORDER } from '../../extensions/types.js';

const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 20;
/** A found tool's description is cut to this many characters on its result line. */
const DESCRIPTION_CHARS = 200;

export interface ToolSearchOptions {
  deferred: DeferredTools;
  /** Waits (the start-up grace) until the MCP tools are registered, for the prompt's name list. */
  whenToolsReady?: (signal: AbortSignal) => Promise<void>;
  /** Waits until every server has settled: a search never misses a slow server's tools. */
  whenAllStarted?: (signal: AbortSignal) => Promise<void>;
}

/** The tool search section's variable (`geekagent config`: `toolSearch.mode`). */
export const toolSearchEnvSetting: EnvSetting<ToolSearchMode> = {
  key: 'toolSearch.mode',
  variable: 'GEEKAGENT_TOOL_SEARCH',
  description:
    'keep MCP tools out of requests until tool_search finds them: auto (when they fill the window), on, off',
  default: 'auto',
  parse: (raw) => {
    const mode = raw.trim().toLowerCase();
    if (mode === 'auto' || mode === 'on' || mode === 'off') return { ok: true, value: mode };
    return {
      ok: false,
      problem: `GEEKAGENT_TOOL_SEARCH=${visibleLine(raw)} is not auto, on or off: using auto`,
    };
  },
};

/** `GEEKAGENT_TOOL_SEARCH`: auto (default), on, off; anything else is auto with a problem. */
export function toolSearchMode(env: NodeJS.ProcessEnv): { mode: ToolSearchMode; problem?: string } {
  const read = readEnvSetting(toolSearchEnvSetting, env);
  return read.problem !== undefined ? { mode: read.value, problem: read.problem } : { mode: read.value };
}

export function toolSearchExtension(options: ToolSearchOptions): Extension {
  const { deferred } = options;
  return {
    name: 'tool-search',
    // MCP servers still starting are waited for first: their tools are what gets deferred.
    after: ['mcp'],
    setup(host) {
      if (deferred.mode === 'off') return;
      host.tools.add(toolSearchTool(deferred, options.whenAllStarted), 'allow');
      // tool_search itself is sent only while something is deferred or servers were still starting.
      host.on.toolDeferral(
        (tool) =>
          tool.name === TOOL_SEARCH
            ? !deferred.active && deferred.lateNames().length === 0
            : deferred.isDeferred(tool),
        (tool) => deferred.loadedRank(tool),
      );
      host.on.prompt(async (turn) => {
        await options.whenToolsReady?.(turn.signal);
        // Late servers' tools stay out of the list (it would change as they arrive): named instead.
        const listed = deferred.searchableTools().filter((tool) => !deferred.isLate(tool));
        const text = deferredToolsPrompt(listed, deferred.lateNames());
        return text ? { order: PROMPT_ORDER.deferredTools, text } : undefined;
      });
      // Loads what the history found or called, in its order (the same live and after `--continue`;
      // a load is never undone, so a compacted history keeps its tools). The main agent's requests
      // only: a sub-agent gets its tools undeferred (subagents/tool-view.ts), and its history must
      // not load tools into the main agent's requests.
      host.on.beforeRequest(async (request) => {
        if (deferred.active) deferred.load(loadedByHistory(request.conversation.messages));
      });
    },
  };
}

const searchArgs = toolArguments(TOOL_SEARCH, () =>
  z.object({
    query: z.string().check(z.describe('What you want to do, in a few words (e.g. "open a pull request").')),
    limit: z.optional(
      z
        .int()
        .check(
          z.minimum(1),
          z.maximum(MAX_LIMIT),
          z.describe(`How many tools to return (default ${DEFAULT_LIMIT}).`),
        ),
    ),
  }),
);

function toolSearchTool(
  deferred: DeferredTools,
  whenAllStarted?: (signal: AbortSignal) => Promise<void>,
): Tool {
  return {
    name: TOOL_SEARCH,
    description:
      'Find tools by what they do (or by name), among the deferred MCP tools listed in the system prompt. ' +
      'Returns the best matches, best first, one "name — description" line each, and loads them: from your ' +
      'next step on they are in your tool list, with their arguments, and you call them like any other tool.',
    get parameters() {
      return searchArgs.parameters;
    },
    run: async (args, ctx) => {
      const { limit = DEFAULT_LIMIT, ...given } = searchArgs.parse(args);
      const query = given.query.trim();
      if (query === '') throw new ToolError('tool_search needs a "query": what you want to do, in words');
      await whenAllStarted?.(ctx.signal);
      const found = deferred.search(query, limit);
      if (found.length === 0)
        return `no tool matches "${visibleLine(query)}"; try other words, or the full name of a tool listed in the system prompt`;
      // Loaded from the next request on (by the history: see setup), their schemas declared there.
      return [
        ...found.map((tool) => `${tool.name} — ${oneLine(withoutServerTag(tool.description))}`),
        '(loaded: in your tool list from your next step on)',
      ].join('\n');
    },
  };
}

/** A server's description as one trimmed, escaped line. */
function oneLine(description: string): string {
  const flat = visibleLine(description.replace(/\s+/g, ' ').trim());
  return flat.length > DESCRIPTION_CHARS
    ? `${flat.slice(0, DESCRIPTION_CHARS - 1)}…`
    : flat || '(no description)';
}

/**
 * The system prompt's list of deferred tools: names only, grouped by server prefix so 300 names
 * stay short (`mcp_github_: create_issue, get_issue, …`).
 */
export function deferredToolsPrompt(
  tools: readonly Tool[],
  connecting: readonly string[] = [],
): string | undefined {
  const starting = connectingLine(connecting);
  if (tools.length === 0) return starting;
  const groups = new Map<string, string[]>();
  const others: string[] = [];
  for (const tool of tools) {
    const prefix = tool.origin ? `mcp_${tool.origin.server}_` : undefined;
    if (prefix && tool.name.startsWith(prefix) && tool.name.length > prefix.length) {
      const group = groups.get(prefix) ?? [];
      group.push(tool.name.slice(prefix.length));
      groups.set(prefix, group);
    } else {
      others.push(tool.name);
    }
  }
  const lines = [...groups].map(([prefix, rest]) => visibleLine(`${prefix}: ${rest.join(', ')}`));
  if (others.length > 0) lines.push(visibleLine(`other: ${others.join(', ')}`));
  return [
    `Deferred tools (${tools.length}): not in your tool list until loaded. Call ${TOOL_SEARCH} with what you ` +
      'need to do, or with a full name (prefix + name, e.g. the first below is ' +
      `${tools[0]!.name}), to load the best matches: they are in your tool list from your next step on.`,
    ...lines,
    ...(starting ? [starting] : []),
  ].join('\n');
}

/** The servers still starting when the conversation's first request went, named once for good. */
function connectingLine(servers: readonly string[]): string | undefined {
  if (servers.length === 0) return undefined;
  return visibleLine(
    `MCP servers still connecting: ${servers.join(', ')}. Their tools are not listed here: ${TOOL_SEARCH} ` +
      'waits for them to be up and finds their tools (their tool names start with mcp_<server>_).',
  );
}

/**
 * Tools this conversation already used or found, in the order they were loaded (each call in turn;
 * a search's by its result): loaded again after `--continue`, so the tool list is the same.
 */
export function loadedByHistory(messages: readonly HistoryMessage[]): string[] {
  const results = new Map<string, HistoryMessage>();
  for (const message of messages) if (message.role === 'tool') results.set(message.callId, message);
  const names: string[] = [];
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls ?? []) {
      if (call.name !== TOOL_SEARCH) names.push(call.name);
      else {
        const result = results.get(call.id);
        if (result) names.push(...foundBy(result));
      }
    }
  }
  return names;
}

function foundBy(message: HistoryMessage): string[] {
  if (message.role !== 'tool' || message.name !== TOOL_SEARCH || message.isError) return [];
  const names: string[] = [];
  for (const line of outputToText(message.output).split('\n')) {
    const match = /^(\S+) \u2014 /.exec(line);
    if (match) names.push(match[1]!);
  }
  return names;
}

/** `/mcp`'s line about deferral: how many tools are deferred and the tokens that saves. */
export function describeDeferral(deferred: DeferredTools): string {
  const stats = deferred.stats();
  if (stats.mode === 'off') return 'tool search: off (GEEKAGENT_TOOL_SEARCH=off): every MCP tool is sent';
  if (!stats.active) {
    return stats.total === 0
      ? 'tool search: no MCP tools to defer'
      : `tool search: not needed (MCP tools ≈ ${tokens(stats.totalTokens)} tokens, under ${DEFER_SHARE * 100}% of the ${tokens(stats.contextWindow)} window)`;
  }
  // What deferring costs is subtracted: the name list and tool_search's own definition.
  const tool = toolSearchTool(deferred);
  const cost =
    (deferredToolsPrompt(deferred.deferredTools())?.length ?? 0) +
    JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters }).length;
  const saved = Math.max(0, stats.deferredTokens - Math.ceil(cost / 4));
  return (
    `tool search: ${stats.deferred} of ${stats.total} MCP tools deferred, ≈ ${tokens(saved)} tokens saved per request` +
    (stats.loaded > 0 ? ` (${stats.loaded} loaded)` : '')
  );
}

function tokens(count: number): string {
  return count >= 1000 ? `${(count / 1000).toFixed(1)}k` : String(count);
}
