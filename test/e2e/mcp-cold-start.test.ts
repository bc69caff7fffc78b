/**
 * The first run with a slow server (nothing cached yet): the first model request waits only for
 * the start-up grace, goes without the slow server's tools and names it as connecting in the
 * deferred-tools text; print mode says nothing about it. A search in a later run (again cold: the
 * first cached nothing) waits for the server, finds its tool and the tool is called, declared at the
 * end of the tool list; the system prompt stays byte-identical. The slow server is the 2026 stdio
 * fixture held by a gate file the test opens only once it has seen the first model request, so
 * "before the server is up" is an observed order, not a timing.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-model.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { cliFixture, parseJsonOutput } from './harness.js';

const STDIO_2026 = path.join(REPO_ROOT, 'test', 'fixtures', 'mcp2026', 'stdio-2026.mjs');

/** The default grace (the harness sets a long one for every other test). */
const fx = cliFixture({ env: { GEEKAGENT_MCP_START_GRACE_MS: undefined } });

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

describe('a cold start with a server that takes long to start', () => {
  it('answers the text turn before the slow server is up, naming it as connecting; a later search waits for it, finds and calls its tool', async () => {
    const gate = path.join(fx.project.dir, 'gate');
    await servers(gate);
    let gateWasOpen: boolean | undefined;
    fx.fake.push((request) => {
      gateWasOpen = existsSync(gate);
      return { text: `hello (${toolNames(request).length} tools)` };
    });
    const first = await fx.run(['-p', 'hi', '--output-format', 'json']);
    expect(first.code, first.stderr).toBe(0);
    expect(parseJsonOutput(first).result).toMatch(/^hello/);
    expect(gateWasOpen).toBe(false);
    const request = fx.fake.requests[0]!;
    const names = toolNames(request);
    // The fast server is in if it made the grace (a busy machine may take longer), else named too.
    expect(
      names.includes('mcp_fast_echo') || systemPrompt(request).includes('still connecting: fast, slow.'),
    ).toBe(true);
    expect(names).toContain('tool_search');
    expect(names.filter((name) => name.startsWith('mcp_slow_'))).toEqual([]);
    expect(systemPrompt(request)).toMatch(/MCP servers still connecting: (fast, )?slow\./);
    // Print mode says nothing about a server that is merely slow.
    expect(first.stderr).not.toMatch(/slow|waiting/);

    // Another run, still cold (the first cached nothing of the slow server): the search waits.
    fx.fake.push(
      (seen) => {
        gateWasOpen = existsSync(gate);
        writeFileSync(gate, '');
        expect(toolNames(seen).filter((name) => name.startsWith('mcp_slow_'))).toEqual([]);
        return { toolCalls: [{ name: 'tool_search', arguments: '{"query":"mcp_slow_echo"}' }] };
      },
      { toolCalls: [{ name: 'mcp_slow_echo', arguments: '{"text":"late"}' }] },
      { text: 'done' },
    );
    const second = await fx.run(['-p', 'echo late', '--output-format', 'json', '--allow', 'mcp_slow_*']);
    expect(second.code, second.stderr).toBe(0);
    expect(gateWasOpen).toBe(false);
    const output = parseJsonOutput(second);
    const [search, call] = output.tool_calls;
    expect(search?.result.split('\n')[0]).toMatch(/^mcp_slow_echo — Echoes the text back\./);
    expect(call).toMatchObject({ name: 'mcp_slow_echo', is_error: false, result: 'echo: late (modern era)' });
    expect(output.result).toBe('done');

    const [opening, afterSearch, last] = fx.fake.requests.slice(1);
    expect(systemPrompt(opening!)).toMatch(/MCP servers still connecting: (fast, )?slow\./);
    // The slow server's tools joined at the end; what was sent before and the prompt held.
    const before = opening!.body.tools!;
    for (const later of [afterSearch!, last!]) {
      expect(JSON.stringify(later.body.tools!.slice(0, before.length))).toBe(JSON.stringify(before));
      const joined = toolNames(later).slice(before.length);
      expect(joined.filter((name) => name.startsWith('mcp_slow_')).sort()).toEqual([
        'mcp_slow_add',
        'mcp_slow_echo',
      ]);
      expect(systemPrompt(later)).toBe(systemPrompt(opening!));
    }
  });

  it('a call by name to a tool of a server still starting waits for the server and runs', async () => {
    const gate = path.join(fx.project.dir, 'gate');
    await servers(gate);
    let gateWasOpen: boolean | undefined;
    fx.fake.push(
      (request) => {
        gateWasOpen = existsSync(gate);
        writeFileSync(gate, '');
        expect(toolNames(request)).not.toContain('mcp_slow_echo');
        // A model that names a tool its request does not declare (it knew it from elsewhere).
        return { toolCalls: [{ name: 'mcp_slow_echo', arguments: '{"text":"direct"}' }], undeclared: true };
      },
      { text: 'done' },
    );
    const run = await fx.run(['-p', 'echo direct', '--output-format', 'json', '--allow', 'mcp_slow_*']);
    expect(run.code, run.stderr).toBe(0);
    expect(gateWasOpen).toBe(false);
    const [call] = parseJsonOutput(run).tool_calls;
    expect(call).toMatchObject({
      name: 'mcp_slow_echo',
      is_error: false,
      result: 'echo: direct (modern era)',
    });
  });
});
