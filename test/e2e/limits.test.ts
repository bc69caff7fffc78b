/**
 * Limits, end to end in print mode: a round of 40 MCP calls runs at most 16 at once (measured by
 * the server), with results in the model's order.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFixture, FIXTURE_SERVERS, parseJsonOutput } from './harness.js';

const fx = cliFixture();

describe('tool calls of one round', () => {
  it('run at most 16 at once; the rest queue and results keep the model’s order', async () => {
    await fx.project.mcpServers({
      counter: { command: 'node', args: [path.join(FIXTURE_SERVERS, 'concurrency.mjs')] },
    });
    const ids = Array.from({ length: 40 }, (_, i) => `c${i}`);
    fx.fake.push(
      { toolCalls: ids.map((id) => ({ name: 'mcp_counter_hold', arguments: JSON.stringify({ id }) })) },
      { text: 'held' },
    );
    const run = await fx.run(['-p', 'hold them', '--output-format', 'json', '--allow', 'mcp_counter_*']);
    expect(run.code, run.stderr).toBe(0);
    const results = parseJsonOutput(run).tool_calls.map((c) => c.result);
    expect(results.map((r) => /^id=(\w+)/.exec(r)?.[1])).toEqual(ids);
    const most = Math.max(...results.map((r) => Number(/max=(\d+)/.exec(r)?.[1])));
    // The server saw 16 calls in flight together, never more.
    expect(most).toBe(16);
  });
});
