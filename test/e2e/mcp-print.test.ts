/**
 * The seed's verification steps, end to end in print mode: the demo server's tools reach the
 * model, calls come back with the server's answers, and GeekAgent.json's allow/deny rules (and
 * patterns) decide. Plus: start-up waits for servers, a bad mcp.json stops start-up.
 */
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { cliFixture, DEMO_SERVER, FIXTURE_SERVERS, parseJsonOutput } from './harness.js';

const fx = cliFixture();

beforeEach(async () => {
  await fx.project.mcpServers({ demo: { command: 'node', args: [DEMO_SERVER] } });
});

const SEED_PROMPT =
  'Roll the die once, then count the characters and words in the phrase "Model Context Protocol"';

function scriptSeedTurn() {
  fx.fake.push(
    {
      toolCalls: [
        { name: 'mcp_demo_dice', arguments: '{}' },
        { name: 'mcp_demo_word_count', arguments: JSON.stringify({ text: 'Model Context Protocol' }) },
      ],
    },
    (request) => {
      const results = request.body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
      return { text: `Results: ${results.join(' | ')}` };
    },
  );
}

describe('MCP in print mode', () => {
  it('rolls the die and counts "Model Context Protocol" through the demo server', async () => {
    scriptSeedTurn();
    const run = await fx.run(['-p', SEED_PROMPT, '--output-format', 'json', '--allow', 'mcp_demo_*']);
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out.tool_calls.map((c) => [c.name, c.decision])).toEqual([
      ['mcp_demo_dice', 'allow'],
      ['mcp_demo_word_count', 'allow'],
    ]);
    expect(out.tool_calls[0]!.result).toMatch(/^Roll: [1-6]$/);
    expect(out.tool_calls[1]!.result).toBe('Characters 22, words 3');
    expect(out.result).toMatch(/^Results: Roll: [1-6] \| Characters 22, words 3$/);
    // The model saw the server's tools on its very first request, with the [MCP:demo] description.
    const tools = (fx.fake.requests[0]!.body.tools ?? []) as Array<{
      function: { name: string; description: string };
    }>;
    const dice = tools.find((t) => t.function.name === 'mcp_demo_dice');
    expect(dice?.function.description).toBe('[MCP:demo] Roll a six-sided die and return the random result.');
  });

  it('MCP tools default to ask: refused in print mode with the hint', async () => {
    scriptSeedTurn();
    const run = await fx.run(['-p', SEED_PROMPT, '--output-format', 'json']);
    const out = parseJsonOutput(run);
    expect(out.tool_calls.map((c) => [c.decision, c.result])).toEqual([
      ['refused', 'needs approval: run interactively or pass --allow mcp_demo_dice'],
      ['refused', 'needs approval: run interactively or pass --allow mcp_demo_word_count'],
    ]);
  });

  it('"mcp_demo_dice": "allow" runs without asking; "deny" is refused by the permission layer', async () => {
    await fx.project.tools({ mcp_demo_dice: 'allow' });
    fx.fake.push({ toolCalls: [{ name: 'mcp_demo_dice', arguments: '{}' }] }, { text: 'rolled' });
    const allowed = parseJsonOutput(await fx.run(['-p', 'roll', '--output-format', 'json']));
    expect(allowed.tool_calls[0]).toMatchObject({ decision: 'allow', is_error: false });
    expect(allowed.tool_calls[0]!.result).toMatch(/^Roll: [1-6]$/);

    await fx.project.tools({ mcp_demo_dice: 'deny' });
    fx.fake.push({ toolCalls: [{ name: 'mcp_demo_dice', arguments: '{}' }] }, { text: 'denied' });
    const denied = parseJsonOutput(await fx.run(['-p', 'roll', '--output-format', 'json']));
    expect(denied.tool_calls[0]).toMatchObject({
      decision: 'deny',
      is_error: true,
      result: 'permission denied: tool mcp_demo_dice is not allowed',
    });
  });

  it('a pattern rule like mcp_demo_* works, and an exact rule beats it', async () => {
    await fx.project.tools({ 'mcp_demo_*': 'allow', mcp_demo_word_count: 'deny' });
    scriptSeedTurn();
    const out = parseJsonOutput(await fx.run(['-p', SEED_PROMPT, '--output-format', 'json']));
    expect(out.tool_calls.map((c) => c.decision)).toEqual(['allow', 'deny']);
  });

  it('waits for a slow server before the first model request; a hung one never blocks the rest', async () => {
    await fx.project.mcpServers({
      hung: { command: 'node', args: ['-e', 'setInterval(() => {}, 1e6)'], startupTimeout: 1500 },
      demo: { command: 'node', args: [DEMO_SERVER] },
    });
    fx.fake.push({ text: 'ok' });
    const run = await fx.run(['-p', 'hi']);
    expect(run.code, run.stderr).toBe(0);
    // Print mode says nothing while it waits; a server that fails to start is told.
    expect(run.stderr).not.toContain('waiting for MCP servers');
    expect(run.stderr).toContain('MCP server hung failed to start: ');
    const names = ((fx.fake.requests[0]!.body.tools ?? []) as Array<{ function: { name: string } }>).map(
      (t) => t.function.name,
    );
    expect(names).toContain('mcp_demo_dice');
    expect(names.some((n) => n.startsWith('mcp_hung_'))).toBe(false);
  });

  it('a crashing tool call becomes an error result and the turn goes on', async () => {
    await fx.project.mcpServers({
      crash: { command: 'node', args: [path.join(FIXTURE_SERVERS, 'crash.mjs')] },
    });
    fx.fake.push({ toolCalls: [{ name: 'mcp_crash_crash', arguments: '{}' }] }, { text: 'it crashed' });
    const out = parseJsonOutput(
      await fx.run(['-p', 'crash it', '--output-format', 'json', '--allow', 'mcp_crash_*']),
    );
    expect(out.tool_calls[0]!.is_error).toBe(true);
    expect(out.tool_calls[0]!.result).toContain('server exited with code 3');
    expect(out.result).toBe('it crashed');
  });

  it('a call that arrives while the crashed server restarts waits and is served by the restarted server', async () => {
    await fx.project.mcpServers({
      crash: { command: 'node', args: [path.join(FIXTURE_SERVERS, 'crash.mjs')] },
    });
    // The model's next call comes back at once, well before the restart (half a second) is done.
    fx.fake.push(
      { toolCalls: [{ name: 'mcp_crash_crash', arguments: '{}' }] },
      { toolCalls: [{ name: 'mcp_crash_echo', arguments: '{"text":"back again"}' }] },
      { text: 'served' },
    );
    const run = await fx.run(['-p', 'crash, echo', '--output-format', 'json', '--allow', 'mcp_crash_*']);
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out.tool_calls.map((call) => [call.is_error, call.result])).toEqual([
      [true, expect.stringContaining('server exited with code 3')],
      [false, 'back again'],
    ]);
    expect(out.result).toBe('served');
  });

  it('runs a round of 16 calls at once without a listener-leak warning on stderr', async () => {
    const texts = Array.from({ length: 16 }, (_, i) => `call ${'word '.repeat(i)}`.trim());
    fx.fake.push(
      {
        toolCalls: texts.map((text) => ({
          name: 'mcp_demo_word_count',
          arguments: JSON.stringify({ text }),
        })),
      },
      { text: 'counted' },
    );
    const run = await fx.run(['-p', 'count them all', '--output-format', 'json', '--allow', 'mcp_demo_*']);
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out.tool_calls.map((c) => c.result)).toEqual(
      texts.map((text) => `Characters ${text.length}, words ${text.split(' ').length}`),
    );
    // Every call listens on the turn's signal; Node warns past 10 listeners unless told otherwise.
    expect(run.stderr).not.toMatch(/MaxListenersExceeded|memory leak/);
  });

  it('an unparsable mcp.json stops start-up naming the file, line and column', async () => {
    await fx.project.write(
      '.geekagent/mcp.json',
      '{\n  "mcpServers": {\n    "demo": { "command": "node", }\n  }\n}\n',
    );
    const run = await fx.run(['-p', 'hi']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `${path.join(fx.project.dir, '.geekagent', 'mcp.json')}: invalid JSON at line 3, column`,
    );
    expect(fx.fake.requests).toHaveLength(0);
  });
});
