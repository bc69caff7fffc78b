/**
 * The cold start (issue 45) in the faces that do not draw: stream-json's init line comes after the
 * start-up grace with the slow server `pending` (Claude Code's word), its first turn is answered
 * before the server is up with the server named as connecting, and a search later in the same run
 * waits for it, finds its tool and the tool is called; print mode's `/mcp` shows the server still
 * connecting instead of waiting for it; the library's `query` (stream-json's loop) answers before
 * the server is up as well. The slow server is the 2026 stdio fixture held by a gate
 * file that only the test opens (after it saw the first answer), so "before it is up" is an
 * observed order, not a timing; a run that waited for every server would never end.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { query } from '../../src/library/index.js';
import type { RecordedRequest } from '../fixtures/fake-model.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { cliFixture, testEnv } from './harness.js';
import { type Line, linesOf, toolResultsOf, userLine as user } from './stream-json-lines.js';

const STDIO_2026 = path.join(REPO_ROOT, 'test', 'fixtures', 'mcp2026', 'stdio-2026.mjs');

/** The default grace (the harness sets a long one for every other test). */
const fx = cliFixture({ env: { GEEKAGENT_MCP_START_GRACE_MS: undefined, GEEKAGENT_SANDBOX: 'off' } });

function toolNames(request: RecordedRequest): string[] {
  return (request.body.tools ?? []).map((tool) => (tool.function as { name: string }).name);
}

function systemPrompt(request: RecordedRequest): string {
  return String(request.body.messages[0]?.content);
}

async function servers(gate: string): Promise<void> {
  await fx.project.mcpServers({
    fast: { command: 'node', args: [STDIO_2026] },
    slow: { command: 'node', args: [STDIO_2026], env: { START_GATE: gate } },
  });
}

describe('a cold start with a slow server, without a terminal', () => {
  it('stream-json: init lists the slow server as pending, the first turn is answered before it is up, a later search in the run finds and calls its tool', async () => {
    const gate = path.join(fx.project.dir, 'gate');
    await servers(gate);
    const gateOpen: boolean[] = [];
    fx.fake.push(
      (request) => {
        gateOpen.push(existsSync(gate));
        return {
          text: `hello (${toolNames(request).filter((name) => name.startsWith('mcp_slow_')).length})`,
        };
      },
      (request) => {
        // The first answer is out (turns run one after another): only now may the server come up.
        gateOpen.push(existsSync(gate));
        writeFileSync(gate, '');
        expect(toolNames(request).filter((name) => name.startsWith('mcp_slow_'))).toEqual([]);
        return { toolCalls: [{ name: 'tool_search', arguments: '{"query":"mcp_slow_echo"}' }] };
      },
      { toolCalls: [{ name: 'mcp_slow_echo', arguments: '{"text":"late"}' }] },
      { text: 'done' },
    );
    const run = await fx.run(
      ['--input-format', 'stream-json', '--output-format', 'stream-json', '--allow', 'mcp_slow_*'],
      { input: user('hi') + user('echo late') },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(gateOpen).toEqual([false, false]);
    const lines = linesOf(run);

    const init = lines[0]!;
    expect(init).toMatchObject({ type: 'system', subtype: 'init' });
    const statuses = Object.fromEntries(
      (init.mcp_servers as Array<{ name: string; status: string }>).map((s) => [s.name, s.status]),
    );
    expect(statuses.slow).toBe('pending');
    expect(['connected', 'pending']).toContain(statuses.fast);
    expect((init.tools as string[]).filter((name) => name.startsWith('mcp_slow_'))).toEqual([]);
    expect(init.tools).toContain('tool_search');

    const first = fx.fake.requests[0]!;
    expect(systemPrompt(first)).toMatch(/MCP servers still connecting: (fast, )?slow\./);
    // The first turn's answer, then its result, before the second turn's first request went.
    const answers = lines.filter((line) => line.type === 'assistant');
    expect(answers[0]!.message.content).toEqual([{ type: 'text', text: 'hello (0)' }]);
    const results = lines.filter((line) => line.type === 'result');
    expect(results.map((line) => line.result)).toEqual(['hello (0)', 'done']);

    // The search waited for the server, found its tool, and the call ran.
    const toolResults = toolResultsOf(lines);
    expect(String(toolResults[0]!.content)).toMatch(/mcp_slow_echo — Echoes the text back\./);
    expect(toolResults[1]).toMatchObject({ is_error: false });
    expect(JSON.stringify(toolResults[1]!.content)).toContain('echo: late (modern era)');
    // The system prompt stayed byte-identical while the tools joined.
    for (const later of fx.fake.requests.slice(1)) expect(systemPrompt(later)).toBe(systemPrompt(first));
    expect(toolNames(fx.fake.requests[3]!)).toContain('mcp_slow_echo');
    // Nothing said about a server that is merely slow.
    expect(lines.filter((line) => line.subtype === 'notice')).toEqual([]);
  });

  it('the library: query() says the slow server is pending and answers before it is up', async () => {
    const gate = path.join(fx.project.dir, 'gate');
    await servers(gate);
    let gateWasOpen: boolean | undefined;
    fx.fake.push(() => {
      gateWasOpen = existsSync(gate);
      return { text: 'hello' };
    });
    const env = testEnv({
      project: fx.project,
      modelUrl: fx.fake.url,
      env: { GEEKAGENT_MCP_START_GRACE_MS: undefined },
    });
    const messages: Line[] = [];
    for await (const message of query({ prompt: 'hi', options: { cwd: fx.project.dir, env, trust: true } }))
      messages.push(message as Line);
    expect(gateWasOpen).toBe(false);
    const init = messages[0]!;
    expect(init).toMatchObject({ type: 'system', subtype: 'init' });
    expect(init.mcp_servers).toContainEqual({ name: 'slow', status: 'pending' });
    expect(messages.at(-1)).toMatchObject({ type: 'result', result: 'hello' });
    expect(systemPrompt(fx.fake.requests[0]!)).toMatch(/MCP servers still connecting: (fast, )?slow\./);
  });

  it('print mode: /mcp shows the slow server as connecting instead of waiting for it', async () => {
    const gate = path.join(fx.project.dir, 'gate');
    await servers(gate);
    const run = await fx.run(['-p', '/mcp']);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(gate)).toBe(false);
    expect(run.stdout).toContain('slow (connecting)');
    expect(run.stdout).toMatch(/fast \((2 tools|connecting)\)/);
    expect(run.stderr).not.toMatch(/slow|waiting/);
  });
});
