/**
 * One call of every tool the model can be offered, for test/e2e/every-tool.test.ts (issue 25: the
 * bundle once broke `glob` in the shipped CLI and no test noticed). Each case names its tool, its
 * arguments (from the results before it, e.g. memory_delete's id) and what a working result looks
 * like; the project it runs in holds what the calls need (files, a skill with an executable, an
 * MCP server with a tool and a resource, a page to fetch). `offeredTools` reads what a model
 * request offered, sent or deferred, so the test fails when a tool appears without a case here.
 */
import { chmod } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FakeStep, RecordedRequest } from '../fixtures/fake-model.js';
import { FIXTURE_SERVERS, type Project } from './harness.js';

export interface ToolCase {
  name: string;
  /** Its calls go out in this model round (1, 2, 3): after the calls whose results it uses. */
  round: number;
  args: (results: ReadonlyMap<string, string>) => Record<string, unknown>;
  /** A working call's result; an error message never matches. */
  result: RegExp;
  /** `geekagent mcp serve` offers it too (the tools that need no conversation or model). */
  served: boolean;
  /** Deferred and called by name without a search: a model naming a tool its request does not declare. */
  undeclared?: true;
}

const memoryId = (results: ReadonlyMap<string, string>): string => {
  const match = /saved memory (\S+) \(project\)/.exec(results.get('memory_write') ?? '');
  if (!match) throw new Error(`memory_write gave no id: ${results.get('memory_write')}`);
  return match[1]!;
};

export const SUB_AGENT_ANSWER = 'the explore agent looked around';
export const FINAL_ANSWER = 'every tool answered';

export const TOOL_CASES: readonly ToolCase[] = [
  { name: 'get_current_time', round: 1, args: () => ({}), result: /^local: \d{4}-\d\d-\d\dT/, served: true },
  {
    name: 'run_shell',
    round: 1,
    // Confined by default (workspace-write), unasked: it runs, and the write out of the root is
    // refused. The agent starts it in the background (shell_kill then reads the sandbox's note);
    // `mcp serve` offers no background shells, so there it runs to its end as usual.
    args: () => ({ command: 'echo shell-ran; echo x > ../every-tool-escape', background: true }),
    result:
      /^(\[sandbox\][^\n]*refused: write to \.\.\/every-tool-escape[\s\S]*shell-ran|started background shell shell-1 \(pid \d+\))/,
    served: true,
  },
  {
    name: 'shell_kill',
    round: 2,
    args: () => ({ id: 'shell-1' }),
    result:
      /^(stopped shell-1|shell-1 had already ended)\n[\s\S]*\[sandbox\][^\n]*refused: write to \.\.\/every-tool-escape/,
    served: false,
  },
  {
    name: 'shell_output',
    round: 3,
    args: () => ({}),
    result:
      /^== shell-1: echo shell-ran; .*==\n\(no new output\)\n\[shell-1 (stopped|exited with code \d+)\]$/,
    served: false,
  },
  { name: 'ls', round: 1, args: () => ({ path: 'docs' }), result: /notes\.md/, served: true },
  { name: 'read', round: 1, args: () => ({ path: 'docs/notes.md' }), result: /alpha beta/, served: true },
  {
    name: 'glob',
    round: 1,
    args: () => ({ pattern: 'docs/**/*.md' }),
    result: /^docs\/guide\.md\ndocs\/notes\.md/,
    served: true,
  },
  {
    name: 'search',
    round: 1,
    args: () => ({ pattern: 'gamma' }),
    result: /docs\/notes\.md:2: gamma/,
    served: true,
  },
  {
    name: 'fetch',
    round: 1,
    args: (r) => ({ url: r.get('@page') }),
    result: /HTTP 200\)\n[\s\S]*served page text/,
    served: true,
  },
  {
    name: 'write',
    round: 1,
    args: () => ({ path: 'out/new.txt', content: 'one\n' }),
    result: /^created out\/new\.txt/,
    served: true,
  },
  {
    name: 'patch',
    round: 2,
    args: () => ({ path: 'out/new.txt', hunks: [{ old: 'one', new: 'two' }] }),
    result: /^patched out\/new\.txt \(1 hunk\)/,
    served: true,
  },
  {
    name: 'memory_write',
    round: 1,
    args: () => ({ content: 'The deploy script is scripts/ship.sh' }),
    result: /^saved memory \S+ \(project\)/,
    served: true,
  },
  {
    name: 'memory_search',
    round: 2,
    args: () => ({ query: 'deploy script' }),
    result: /scripts\/ship\.sh/,
    served: true,
  },
  {
    name: 'memory_delete',
    round: 3,
    args: (r) => ({ id: memoryId(r) }),
    result: /^deleted memory \S+/,
    served: true,
  },
  // A glob source: it went through the same broken tinyglobby.
  { name: 'rag_add', round: 1, args: () => ({ source: 'docs/*.md' }), result: /2 indexed/, served: true },
  {
    name: 'rag_search',
    round: 2,
    args: () => ({ query: 'zebra crossing' }),
    result: /docs\/guide\.md:\d+/,
    served: true,
  },
  {
    name: 'todo_write',
    round: 1,
    args: () => ({ todos: [{ content: 'call every tool', status: 'in_progress' }] }),
    result: /^todo list updated \(1 items\)/,
    served: false,
  },
  // Outside plan mode it has nothing to ask (test/e2e/tui-approval-modes.test.ts asks).
  {
    name: 'exit_plan_mode',
    round: 1,
    args: () => ({ plan: 'call every tool' }),
    result: /^not in plan mode \(the approval mode is default\)/,
    served: false,
  },
  {
    name: 'tool_search',
    round: 1,
    args: () => ({ query: 'look a word up' }),
    result: /^mcp_notes_lookup — /,
    served: false,
  },
  {
    name: 'mcp_notes_lookup',
    round: 2,
    args: () => ({ word: 'kiwi' }),
    result: /^found kiwi$/,
    served: false,
  },
  {
    name: 'mcp_notes_list_resources',
    round: 1,
    args: () => ({}),
    result: /notes:\/\/readme/,
    served: false,
    undeclared: true,
  },
  {
    name: 'mcp_notes_read_resource',
    round: 1,
    args: () => ({ uri: 'notes://readme' }),
    result: /the notes/,
    served: false,
    undeclared: true,
  },
  {
    name: 'use_skill',
    round: 1,
    args: () => ({ name: 'helper' }),
    result: /Greet with the hello tool/,
    served: false,
  },
  {
    name: 'skill_helper_hello',
    round: 2,
    args: () => ({ args: ['world'] }),
    result: /hello world/,
    served: false,
  },
  {
    name: 'delegate_task',
    round: 1,
    args: () => ({ task: 'Look around the project.' }),
    result: new RegExp(SUB_AGENT_ANSWER),
    served: false,
  },
];

export const ROUNDS = Math.max(...TOOL_CASES.map((c) => c.round));

/** The environment every run of the plan gets: tool search on, so `tool_search` is offered. */
export const PLAN_ENV = { GEEKAGENT_TOOL_SEARCH: 'on' };

export interface PlanProject {
  /** The URL `fetch` reads (a server on loopback, allowed by the project's fetch.allowHosts). */
  pageUrl: string;
  close(): Promise<void>;
}

/** Lays out what the calls need and starts the page server; every tool is allowed by the project. */
export async function preparePlanProject(project: Project): Promise<PlanProject> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('served page text\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await project.write('docs/notes.md', 'alpha beta\ngamma\n');
  await project.write('docs/guide.md', 'A guide about the zebra crossing near the office.\n');
  await project.write(
    '.geekagent/GeekAgent.json',
    JSON.stringify({ root: '..', tools: { '*': 'allow' }, fetch: { allowHosts: [`localhost:${port}`] } }),
  );
  await project.mcpServers({
    notes: {
      command: process.execPath,
      args: [path.join(FIXTURE_SERVERS, 'resources-marker.mjs'), path.join(project.home, 'notes-started')],
    },
  });
  await project.write(
    '.geekagent/skills/helper/SKILL.md',
    [
      '---',
      'name: helper',
      'description: Greets people',
      'tools_exec:',
      '  hello: "bin/hello.sh -- Say hello to the arguments"',
      '---',
      'Greet with the hello tool.',
      '',
    ].join('\n'),
  );
  const script = await project.write('.geekagent/skills/helper/bin/hello.sh', '#!/bin/sh\necho "hello $*"\n');
  await chmod(script, 0o755);
  return {
    pageUrl: `http://localhost:${port}/page`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface WireMessage {
  role?: unknown;
  content?: unknown;
  tool_call_id?: unknown;
  tool_calls?: Array<{ id: string; function: { name: string } }>;
}

/** The tool results a request carries, by tool name (and `@page`: the URL fetch reads). */
export function resultsIn(request: RecordedRequest): Map<string, string> {
  const names = new Map<string, string>();
  const results = new Map<string, string>();
  for (const message of request.body.messages as WireMessage[]) {
    for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
    if (message.role === 'tool') {
      const name = names.get(String(message.tool_call_id)) ?? `unknown ${String(message.tool_call_id)}`;
      results.set(
        name,
        typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
      );
    }
  }
  return results;
}

/** The model's script: each round's calls, then the final answer. The sub-agent answers at once. */
export function planScript(pageUrl: string): FakeStep[] {
  const steps: FakeStep[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    steps.push((request) => {
      const results = resultsIn(request);
      results.set('@page', pageUrl);
      const cases = TOOL_CASES.filter((c) => c.round === round);
      return {
        toolCalls: cases.map((c) => ({ name: c.name, arguments: JSON.stringify(c.args(results)) })),
        ...(cases.some((c) => c.undeclared) ? { undeclared: true } : {}),
      };
    });
  }
  steps.push(() => ({ text: FINAL_ANSWER }));
  return steps;
}

/**
 * Every tool name a request offered the model: the definitions it sent, and the names its system
 * prompt lists as deferred (tool search), which the model may call by name.
 */
export function offeredTools(request: RecordedRequest): string[] {
  const sent = (request.body.tools ?? []).map((tool) => (tool.function as { name: string }).name);
  const system = String(request.body.messages[0]?.content ?? '');
  const section = system.split(/^Deferred tools \(\d+\):.*$/m)[1];
  const deferred: string[] = [];
  for (const line of section?.split('\n').slice(1) ?? []) {
    const match = /^(mcp_\S*_|other): (.+)$/.exec(line);
    if (!match) break;
    const prefix = match[1] === 'other' ? '' : match[1]!;
    deferred.push(...match[2]!.split(', ').map((name) => prefix + name));
  }
  return [...sent, ...deferred];
}
