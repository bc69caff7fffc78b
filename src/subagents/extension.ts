/**
 * Sub-agents as an extension: `delegate_task {task, agent?}` hands a self-contained task to a
 * sub-agent (runner.ts) and returns its answer with a one-line header; `/agents` lists the known
 * agents and the files that failed to load; print mode's JSON lists this turn's child runs
 * (`"agents"`). Several delegations of one round run at once, at most `maxAgents`; the rest wait.
 */
import { randomBytes } from 'node:crypto';
import type { Extension } from '../extensions/types.js';
import { type EnvParse, type EnvSetting, readEnvSetting } from '../settings/env-setting.js';
import { toolArguments } from '../tools/arguments.js';
import type { Tool } from '../tools/types.js';
import { ToolError } from '../tools/types.js';
import { errorMessage } from '../util/errors.js';
import { Limiter } from '../util/limiter.js';
import * as z from '../util/schema.js';
import { visible } from '../util/terminal-text.js';
import { toolPatternMatches } from '../util/tool-pattern.js';
import { type AgentCatalog, type AgentDefinition, DEFAULT_AGENT } from './definitions.js';
import { type ChildRun, type RunnerDeps, runChild } from './runner.js';

/** How much of a child's answer enters the parent's history. */
export const MAX_ANSWER_CHARS = 20_000;

export interface AgentLimits {
  maxAgents: number;
  maxDepth: number;
  timeoutMs: number;
}

/** A whole number ≥ 1; anything else is the default (a run says nothing, `geekagent config` does). */
function positive(variable: string, fallback: number) {
  return (raw: string): EnvParse<number> => {
    const n = Number(raw);
    return Number.isInteger(n) && n >= 1
      ? { ok: true, value: n }
      : { ok: false, problem: `${variable}=${visible(raw)} is not a whole number ≥ 1: using ${fallback}` };
  };
}

const setting = (
  key: string,
  variable: string,
  fallback: number,
  description: string,
): EnvSetting<number> => ({
  key,
  variable,
  description,
  default: fallback,
  parse: positive(variable, fallback),
});

/** The sub-agents section's variables (`geekagent config`: `subagents.*`). */
export const agentEnvSettings = {
  maxAgents: setting('subagents.maxAgents', 'GEEKAGENT_MAX_AGENTS', 4, 'sub-agents running at once'),
  maxDepth: setting(
    'subagents.maxDepth',
    'GEEKAGENT_MAX_DELEGATE_DEPTH',
    1,
    'how deep sub-agents may delegate',
  ),
  timeoutSeconds: setting(
    'subagents.timeoutSeconds',
    'GEEKAGENT_AGENT_TIMEOUT_SECONDS',
    600,
    "a sub-agent's time limit in seconds",
  ),
};

export function agentLimits(env: NodeJS.ProcessEnv): AgentLimits {
  return {
    maxAgents: readEnvSetting(agentEnvSettings.maxAgents, env).value,
    maxDepth: readEnvSetting(agentEnvSettings.maxDepth, env).value,
    timeoutMs: readEnvSetting(agentEnvSettings.timeoutSeconds, env).value * 1000,
  };
}

interface Context {
  deps: RunnerDeps;
  catalog: AgentCatalog;
  limits: AgentLimits;
  limiter: Limiter;
  runs: ChildRun[];
  counter: { next: number };
}

export function agentsExtension(deps: RunnerDeps, catalog: AgentCatalog, limits: AgentLimits): Extension {
  const context: Context = {
    deps,
    catalog,
    limits,
    limiter: new Limiter(limits.maxAgents),
    runs: [],
    counter: { next: 0 },
  };
  return {
    name: 'agents',
    setup(host) {
      host.tools.add(delegateTool(context, 0), 'allow');
      host.commands.add({
        name: 'agents',
        usage: '/agents [runs | log <run>]',
        description:
          'list the agents delegate_task can use (and agent files that failed to load); runs: this session’s sub-agent runs; log: one run’s transcript',
        run: async ([sub, run], ctx) => {
          const saved = deps.transcripts;
          if (sub === undefined) return ctx.print(describeCatalog(catalog));
          if (sub === 'runs' && saved) {
            const runs = await saved.list();
            return ctx.print(
              runs.length > 0 ? visible(runs.join('\n')) : '(no sub-agent runs in this session)',
            );
          }
          if (sub === 'log' && run && saved) {
            try {
              return ctx.print(visible(await saved.show(run)));
            } catch (error) {
              return ctx.print(errorMessage(error), 'error');
            }
          }
          ctx.print('usage: /agents [runs | log <run>]', 'error');
        },
      });
      // A new parent turn starts a new list of child runs for the JSON result.
      host.on.event((event) => {
        if (event.type === 'round_start' && event.round === 1) context.runs.length = 0;
      });
      host.report('agents', () => context.runs.map(runJson));
    },
  };
}

function delegateTool(context: Context, depth: number): Tool {
  const { catalog } = context;
  const names = catalog.agents.map((agent) => agent.name);
  const listing = catalog.agents.map((agent) => `- ${agent.name}: ${agent.description}`).join('\n');
  const delegateArgs = toolArguments(
    'delegate_task',
    () =>
      z.object({
        task: z.string().check(z.describe('the complete task, with the context the agent needs')),
        agent: z.optional(z.enum(names as [string, ...string[]])),
      }),
    { open: true },
  );
  return {
    name: 'delegate_task',
    description:
      'Hand a self-contained task to a sub-agent with its own fresh conversation (it does not see ' +
      'this one: put everything it needs in the task). Returns its final answer. Several calls in ' +
      `one round run in parallel. Agents (default ${DEFAULT_AGENT}):\n${listing}`,
    get parameters() {
      return delegateArgs.parameters;
    },
    async run(args, ctx) {
      // An empty "agent" means the default one, as models send it for "not given".
      const given = delegateArgs.parse(args.agent === '' ? { ...args, agent: undefined } : args);
      const task = given.task.trim();
      if (task === '') throw new ToolError('delegate_task: "task" must be a non-empty string');
      const name = given.agent ?? DEFAULT_AGENT;
      const definition = catalog.agents.find((agent) => agent.name === name);
      if (!definition)
        throw new ToolError(`delegate_task: unknown agent "${name}"; known: ${names.join(', ')}`);
      const id = `${String(++context.counter.next).padStart(2, '0')}-${definition.name}-${randomBytes(2).toString('hex')}`;
      const own = ownTools(context, definition, depth);
      const run = await context.limiter.run(() =>
        runChild(context.deps, {
          id,
          definition,
          task,
          signal: ctx.signal,
          timeoutMs: context.limits.timeoutMs,
          own,
          onActivity: (rounds, tool) =>
            ctx.onProgress?.({
              progress: rounds,
              message: `${definition.name}: round ${rounds}${tool ? `, running ${tool}` : ''}`,
            }),
        }),
      );
      context.runs.push(run);
      const text = childResult(run);
      if (run.status === 'failed' || run.status === 'timed_out' || run.status === 'cancelled')
        throw new ToolError(text);
      return text;
    },
  };
}

/** A deeper delegate_task, when the depth allows it and the agent's tools name it. */
function ownTools(context: Context, definition: AgentDefinition, depth: number): Tool[] {
  if (depth + 1 >= context.limits.maxDepth) return [];
  if (!definition.tools.some((pattern) => toolPatternMatches(pattern, 'delegate_task'))) return [];
  return [delegateTool(context, depth + 1)];
}

/** The header line, then the answer (cut with a note when it is too long for the parent's history). */
export function childResult(run: ChildRun): string {
  const tokens = run.usage.totalTokens.toLocaleString('en-US');
  const rounds = `${run.rounds} round${run.rounds === 1 ? '' : 's'}`;
  const status =
    run.status === 'completed'
      ? ''
      : run.status === 'cut'
        ? ' · cut off'
        : ` · ${run.status.replace('_', ' ')}`;
  const header = `[agent ${run.agent} · ${rounds} · ${tokens} tokens${status}]`;
  let answer = run.text;
  if (answer.length > MAX_ANSWER_CHARS) {
    answer = `${answer.slice(0, MAX_ANSWER_CHARS)}\n(answer cut: ${answer.length.toLocaleString('en-US')} chars in total${run.transcript ? '; the full transcript is saved' : ''})`;
  }
  const link = run.transcript ? `\n(transcript: ${run.transcript})` : '';
  // The parent must not take a partial answer for a whole one.
  const cut = run.cut ? `\n(this answer is incomplete: the sub-agent's reply was cut off — ${run.cut})` : '';
  return `${header}\n${answer}${cut}${link}`;
}

function runJson(run: ChildRun): Record<string, unknown> {
  return {
    id: run.id,
    agent: run.agent,
    task: run.task,
    status: run.status,
    ...(run.stopReason ? { stop_reason: run.stopReason } : {}),
    result: run.text,
    rounds: run.rounds,
    // The report's documented names (README), not the internal Usage names.
    usage: {
      prompt_tokens: run.usage.inputTokens,
      completion_tokens: run.usage.outputTokens,
      total_tokens: run.usage.totalTokens,
      ...(run.usage.cachedInputTokens !== undefined ? { cached_tokens: run.usage.cachedInputTokens } : {}),
    },
    tool_calls: run.toolCalls.map((call) => ({
      name: call.name,
      arguments: call.arguments,
      decision: call.decision,
      is_error: call.isError,
    })),
    ...(run.transcript ? { transcript: run.transcript } : {}),
  };
}

export function describeCatalog(catalog: AgentCatalog): string {
  const lines = catalog.agents.map((agent) => {
    const tools = agent.tools.map((tool) => (tool === '@readonly-mcp' ? 'read-only MCP tools' : tool));
    const model = agent.model ? ` · model ${agent.model}` : '';
    return `${agent.name} — ${agent.description}\n    tools: ${tools.join(', ') || '(none)'} · max ${agent.maxRounds} rounds${model} · ${agent.source}`;
  });
  for (const error of catalog.errors) {
    lines.push(`error: ${error.file}${error.line ? `:${error.line}` : ''}: ${error.message}`);
  }
  return visible(lines.join('\n'));
}
