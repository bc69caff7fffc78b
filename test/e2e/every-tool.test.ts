/**
 * Every tool the model can be offered, called once through the shipped binary (the launcher and its
 * core.cjs bundle, seen by the watch fixture) in each kind of run: print mode, the TUI in a
 * pseudo-terminal, and `geekagent mcp serve` under the MCP SDK's client. Each call must answer as a working tool does
 * (issue 25: the bundle turned fdir's `createRequire(import.meta.url)` into
 * `createRequire(undefined)`, and `glob` — and `rag_add` of a glob — failed in the built CLI only).
 * The list of calls (every-tool-plan.ts) is checked against what the runs offer, so a new tool
 * without a call here fails this test.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { subAgentOf } from '../fixtures/fake-model.js';
import {
  FINAL_ANSWER,
  offeredTools,
  PLAN_ENV,
  type PlanProject,
  planScript,
  preparePlanProject,
  resultsIn,
  SUB_AGENT_ANSWER,
  TOOL_CASES,
  type ToolCase,
} from './every-tool-plan.js';
import { CLI, parseJsonOutput, REPO_ROOT, runCli, testEnv } from './harness.js';
import { tuiFixture } from './pty.js';

const fx = tuiFixture({ env: PLAN_ENV, cols: 120, rows: 40 });
let plan: PlanProject;

beforeEach(async () => {
  plan = await preparePlanProject(fx.project);
});
afterEach(async () => {
  await plan.close();
});

const caseNames = TOOL_CASES.map((c) => c.name).sort();

/** `name: result` of each case whose result is missing or not what a working tool answers. */
function failures(results: ReadonlyMap<string, string>, cases: readonly ToolCase[]): string[] {
  return cases
    .filter((c) => !c.result.test(results.get(c.name) ?? ''))
    .map((c) => `${c.name}: ${results.get(c.name) ?? '(not called)'}`);
}

/** The model was offered exactly the tools the plan calls, and every call answered as it should. */
function expectEveryToolAnswered(): void {
  const offered = new Set(fx.fake.requests.flatMap(offeredTools));
  const uncovered = [...offered].filter((name) => !caseNames.includes(name));
  expect(uncovered, 'tools offered to the model without a case in every-tool-plan.ts').toEqual([]);
  expect([...offered].sort(), 'cases for tools no run offered').toEqual(caseNames);

  const main = fx.fake.requests.filter((request) => subAgentOf(request) === undefined);
  const results = resultsIn(main.at(-1)!);
  expect(failures(results, TOOL_CASES), 'calls that did not answer as a working tool').toEqual([]);
  expect(results.size).toBe(TOOL_CASES.length);
}

const WATCH = path.join(REPO_ROOT, 'test', 'fixtures', 'modules', 'watch.mjs');
const logFile = () => path.join(fx.project.home, 'modules.log');
/** PLAN_ENV, with the watch fixture recording what the run loads (test/fixtures/modules/watch.mjs). */
const watchedEnv = () => ({ ...PLAN_ENV, NODE_OPTIONS: `--import=${WATCH}`, MODULE_LOG: logFile() });

/** The run was the shipped build: the launcher required the core bundle (not tsc's app.js). */
function expectShippedCore(): void {
  const lines = existsSync(logFile()) ? readFileSync(logFile(), 'utf8').split('\n') : [];
  expect(lines).toContain('bundle core.cjs');
}

describe('every tool through the shipped binary', () => {
  it('print mode (-p): each tool answers, none is an error', async () => {
    fx.fake.push(...planScript(plan.pageUrl));
    fx.fake.pushFor('explore', { text: SUB_AGENT_ANSWER });
    const run = await runCli(['-p', 'call every tool', '--output-format', 'json'], {
      project: fx.project,
      modelUrl: fx.fake.url,
      env: watchedEnv(),
    });
    expect(run.code, run.stderr).toBe(0);
    const output = parseJsonOutput(run);
    expect(output.result).toBe(FINAL_ANSWER);
    expect(output.tool_calls.map((call) => call.name).sort()).toEqual(caseNames);
    const answered = new Map(
      output.tool_calls.map((call) => [
        call.name,
        call.is_error || call.decision !== 'allow' ? `(${call.decision}, error) ${call.result}` : call.result,
      ]),
    );
    expect(failures(answered, TOOL_CASES), 'calls that did not answer as a working tool').toEqual([]);
    expectEveryToolAnswered();
    expectShippedCore();
  });

  it('the TUI: each tool answers, none is an error', async () => {
    fx.fake.push(...planScript(plan.pageUrl));
    fx.fake.pushFor('explore', { text: SUB_AGENT_ANSWER });
    const tui = fx.start({ env: watchedEnv() });
    await tui.waitFor('GeekAgent');
    tui.send('call every tool\r');
    await tui.waitFor(FINAL_ANSWER, 60_000);
    expectEveryToolAnswered();
    tui.send('/exit\r');
    expect(await tui.exited()).toBe(0);
    expectShippedCore();
  });

  it('mcp serve: each served tool answers, none is an error', async () => {
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(testEnv({ project: fx.project, env: watchedEnv() })))
      if (value !== undefined) env[key] = value;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--trust', 'mcp', 'serve'],
      cwd: fx.project.dir,
      env,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'every-tool', version: '1.0.0' });
    await client.connect(transport);
    try {
      const listed = (await client.listTools()).tools.map((tool) => tool.name);
      const served = TOOL_CASES.filter((c) => c.served);
      expect(
        listed.filter((name) => !served.some((c) => c.name === name)),
        'served tools without a served case in every-tool-plan.ts',
      ).toEqual([]);
      expect(listed.sort()).toEqual(served.map((c) => c.name).sort());

      const results = new Map<string, string>([['@page', plan.pageUrl]]);
      for (const c of served.sort((a, b) => a.round - b.round)) {
        const answer = (await client.callTool({
          name: c.name,
          arguments: c.args(results),
        })) as CallToolResult;
        const text = answer.content
          .map((part) => (part.type === 'text' ? part.text : `[${part.type}]`))
          .join('\n');
        results.set(c.name, answer.isError ? `(error) ${text}` : text);
      }
      expect(failures(results, served), 'calls that did not answer as a working tool').toEqual([]);
    } finally {
      await client.close();
    }
    expectShippedCore();
  });
});
