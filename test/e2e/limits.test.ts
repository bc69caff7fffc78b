/**
 * Limits, end to end in print mode: a round of 40 MCP calls runs at most 16 at once (measured by
 * the server), with results in the model's order.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { createProject, FIXTURE_SERVERS, type Project, parseJsonOutput, runCli } from './harness.js';

let project: Project;
let fake: FakeModel;

beforeEach(async () => {
  project = await createProject();
  fake = await startFakeModel();
});

afterEach(async () => {
  await fake.close();
  await project.cleanup();
});

describe('tool calls of one round', () => {
  it('run at most 16 at once; the rest queue and results keep the model’s order', async () => {
    await project.mcpServers({
      counter: { command: 'node', args: [path.join(FIXTURE_SERVERS, 'concurrency.mjs')] },
    });
    const ids = Array.from({ length: 40 }, (_, i) => `c${i}`);
    fake.push(
      { toolCalls: ids.map((id) => ({ name: 'mcp_counter_hold', arguments: JSON.stringify({ id }) })) },
      { text: 'held' },
    );
    const run = await runCli(['-p', 'hold them', '--output-format', 'json', '--allow', 'mcp_counter_*'], {
      project,
      modelUrl: fake.url,
    });
    expect(run.code, run.stderr).toBe(0);
    const results = parseJsonOutput(run).tool_calls.map((c) => c.result);
    expect(results.map((r) => /^id=(\w+)/.exec(r)?.[1])).toEqual(ids);
    const most = Math.max(...results.map((r) => Number(/max=(\d+)/.exec(r)?.[1])));
    // The server saw 16 calls in flight together, never more.
    expect(most).toBe(16);
  });
});
