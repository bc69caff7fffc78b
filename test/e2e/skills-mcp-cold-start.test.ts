/**
 * A skill's own slow MCP server at start (issue 45, `--skill NAME` with an mcp.json beside its
 * SKILL.md) holds nothing back longer than a configured one does: stream-json's init line comes
 * after the run's start-up grace with the skill's server `pending`, the first turn is answered
 * before the server is up (the server named as connecting), and a later direct call of its tool
 * waits for it and runs — no tool lost. Print mode answers before it is up too (naming it as
 * connecting), and its `/mcp` shows it connecting instead of waiting. The slow server is the 2026 stdio fixture held by a gate file that only the test opens,
 * after it saw what must come first: an observed order, not a timing (a run that waited for the
 * skill's server in full would never end).
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-model.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { cliFixture } from './harness.js';
import { linesOf, toolResultsOf, userLine as user } from './stream-json-lines.js';

const STDIO_2026 = path.join(REPO_ROOT, 'test', 'fixtures', 'mcp2026', 'stdio-2026.mjs');

/** The default grace (the harness sets a long one for every other test). */
const fx = cliFixture({ env: { GEEKAGENT_MCP_START_GRACE_MS: undefined, GEEKAGENT_SANDBOX: 'off' } });

const slowTools = (request: RecordedRequest): string[] =>
  (request.body.tools ?? [])
    .map((tool) => (tool.function as { name: string }).name)
    .filter((name) => name.startsWith('mcp_slow_'));

/** The skill `echoer`, whose mcp.json starts the slow server until `gate` exists. */
async function slowSkill(gate: string): Promise<void> {
  await fx.project.write(
    '.agents/skills/echoer/SKILL.md',
    '---\nname: echoer\ndescription: Echo text with the slow server\n---\nEcho with mcp_slow_echo.\n',
  );
  await fx.project.write(
    '.agents/skills/echoer/mcp.json',
    JSON.stringify({
      mcpServers: { slow: { command: 'node', args: [STDIO_2026], env: { START_GATE: gate } } },
    }),
  );
}

describe("a skill's slow server at start", () => {
  it('stream-json --skill: init lists it pending, the first turn is answered before it is up, a later call of its tool waits and runs', async () => {
    const gate = path.join(fx.project.dir, 'gate');
    await slowSkill(gate);
    const gateOpen: boolean[] = [];
    fx.fake.push(
      (request) => {
        gateOpen.push(existsSync(gate));
        return { text: `hello (${slowTools(request).length})` };
      },
      () => {
        // The first answer is out (turns run one after another): only now may the server come up.
        gateOpen.push(existsSync(gate));
        writeFileSync(gate, '');
        // Named by the skill's instructions, not declared yet: the call waits for the server.
        return { toolCalls: [{ name: 'mcp_slow_echo', arguments: '{"text":"late"}' }], undeclared: true };
      },
      { text: 'done' },
    );
    const run = await fx.run(
      [
        '--input-format',
        'stream-json',
        '--output-format',
        'stream-json',
        '--skill',
        'echoer',
        '--allow',
        'mcp_slow_*',
      ],
      { input: user('hi') + user('echo late') },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(gateOpen).toEqual([false, false]);
    const lines = linesOf(run);

    const init = lines[0]!;
    expect(init).toMatchObject({ type: 'system', subtype: 'init' });
    expect(init.mcp_servers).toContainEqual({ name: 'slow', status: 'pending' });
    expect((init.tools as string[]).filter((name) => name.startsWith('mcp_slow_'))).toEqual([]);

    // The skill is active in the first request, its server named as still connecting.
    const first = fx.fake.requests[0]!;
    const prompt = String(first.body.messages[0]?.content);
    expect(prompt).toContain('Echo with mcp_slow_echo.');
    expect(prompt).toMatch(/MCP servers still connecting: slow\./);
    const results = lines.filter((line) => line.type === 'result');
    expect(results.map((line) => line.result)).toEqual(['hello (0)', 'done']);

    // The direct call waited for the server to come up, and ran.
    const toolResults = toolResultsOf(lines);
    expect(toolResults[0]).toMatchObject({ is_error: false });
    expect(JSON.stringify(toolResults[0]!.content)).toContain('echo: late (modern era)');
    expect(slowTools(fx.fake.requests[2]!)).toContain('mcp_slow_echo');
    expect(lines.filter((line) => line.subtype === 'notice')).toEqual([]);
  });

  it('print mode --skill: the answer comes before the skill’s server is up, the server named as connecting', async () => {
    const gate = path.join(fx.project.dir, 'gate');
    await slowSkill(gate);
    let gateWasOpen: boolean | undefined;
    fx.fake.push(() => {
      gateWasOpen = existsSync(gate);
      return { text: 'hello' };
    });
    const run = await fx.run(['-p', 'hi', '--skill', 'echoer']);
    expect(run.code, run.stderr).toBe(0);
    expect(gateWasOpen).toBe(false);
    expect(run.stdout).toContain('hello');
    expect(String(fx.fake.requests[0]!.body.messages[0]?.content)).toMatch(
      /MCP servers still connecting: slow\./,
    );
    expect(run.stderr).not.toMatch(/slow|waiting/);
  });

  it('print mode: /mcp --skill shows the skill’s slow server connecting instead of waiting for it', async () => {
    const gate = path.join(fx.project.dir, 'gate');
    await slowSkill(gate);
    const run = await fx.run(['-p', '/mcp', '--skill', 'echoer']);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(gate)).toBe(false);
    expect(run.stdout).toMatch(/slow \(connecting/);
    expect(run.stderr).not.toMatch(/waiting/);
  });
});
