/**
 * The MCP skills extension (`io.modelcontextprotocol/skills`) through the built CLI, against the
 * real fixture server test/fixtures/mcp2026/skill.mjs (a subprocess): a server's skills join the
 * agent's as `<server>:<skill>` — in `/skills`, the catalog and `use_skill` — each SKILL.md
 * verified by size and digest, so the one served with a wrong digest is refused with the reason;
 * a server skill's `tools:` limits the tools as a local skill's does; a project server's skills
 * need the folder's trust like everything else of the project.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-model.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { cliFixture, parseJsonOutput } from './harness.js';

const SKILL = path.join(REPO_ROOT, 'test', 'fixtures', 'mcp2026', 'skill.mjs');

const fx = cliFixture();

const toolNames = (request: RecordedRequest) =>
  (request.body.tools ?? []).map((tool) => (tool.function as { name: string }).name).sort();
const systemPrompt = (request: RecordedRequest) => String(request.body.messages[0]?.content);
const skillEnum = (request: RecordedRequest) =>
  (
    (request.body.tools ?? []).find((tool) => (tool.function as { name: string }).name === 'use_skill')!
      .function as { parameters: { properties: { name: { enum: string[] } } } }
  ).parameters.properties.name.enum;

async function skillServer(env: Record<string, string> = {}): Promise<void> {
  await fx.project.mcpServers({ sk: { command: 'node', args: [SKILL], env } });
}

describe('MCP server skills', () => {
  it('/skills lists a server’s skills by server; the one with a wrong digest is refused with why', async () => {
    await skillServer();
    const run = await fx.run(['-p', '/skills']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      '  sk:deploy  (MCP server sk: skill://deploy/SKILL.md)\n    Deploys the app to staging\n    status: available',
    );
    expect(run.stdout).toContain('  sk:review  (MCP server sk: skill://review/SKILL.md)');
    expect(run.stdout).toContain(
      '  sk:tampered  (MCP server sk: skill://tampered/SKILL.md)\n    status: not loaded: refused: skill://tampered/SKILL.md does not match the SHA-256 digest the server published for it (changed after publishing?)',
    );
  });

  it('the model sees verified server skills in the catalog and loads one with use_skill', async () => {
    await skillServer();
    fx.fake.push(
      { toolCalls: [{ name: 'use_skill', arguments: '{"name":"sk:review"}' }] },
      { text: 'loaded' },
    );
    const run = await fx.run(['-p', 'review my change', '--output-format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const first = fx.fake.requests[0]!;
    expect(skillEnum(first)).toEqual(['sk:deploy', 'sk:review']);
    expect(systemPrompt(first)).toContain('- sk:deploy: Deploys the app to staging');
    expect(systemPrompt(first)).not.toContain('tampered');
    const call = parseJsonOutput(run).tool_calls[0]!;
    expect(call).toMatchObject({ name: 'use_skill', decision: 'allow', is_error: false });
    expect(call.result).toContain(
      'Active skill "sk:review" (from MCP server sk; its files are resources of that server: skill://review/references/GUIDE.md)',
    );
    expect(call.result).toContain('Read references/GUIDE.md first.');
  });

  it('a server skill’s tools: whitelist limits the tools once it is active', async () => {
    await skillServer({ SKILL_FIXTURE_FRONTMATTER: 'tools: [mcp_sk_ping]' });
    fx.fake.push({ toolCalls: [{ name: 'use_skill', arguments: '{"name":"sk:limited"}' }] }, { text: 'ok' });
    const run = await fx.run(['-p', 'ping it', '--output-format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    expect(toolNames(fx.fake.requests[0]!)).toContain('read');
    expect(toolNames(fx.fake.requests[1]!)).toEqual(['mcp_sk_ping', 'use_skill']);
  });

  it('a server skill’s allowed-tools pre-approve nothing, even in the turn the person activates it in', async () => {
    await skillServer({ SKILL_FIXTURE_FRONTMATTER: 'allowed-tools: run_shell read' });
    const marker = path.join(fx.project.dir, 'ran');
    fx.fake.push(
      { toolCalls: [{ name: 'run_shell', arguments: JSON.stringify({ command: `touch ${marker}` }) }] },
      { text: 'done' },
    );
    const user = (content: string) =>
      `${JSON.stringify({ type: 'user', message: { role: 'user', content } })}\n`;
    const run = await fx.run(['--input-format', 'stream-json', '--output-format', 'stream-json'], {
      input: user('/use sk:limited') + user('deploy now'),
      // Unconfined, so run_shell is asked (and print mode refuses what it would have to ask).
      env: { GEEKAGENT_SANDBOX: 'off' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('skill sk:limited is active (tools: run_shell, read)');
    const uses = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      // Each call's result is a `user` message carrying our decision (Claude Code's shape + ours).
      .filter((line) => line.type === 'user' && 'tool_use_result' in line);
    expect(uses).toMatchObject([{ tool_name: 'run_shell', decision: 'refused' }]);
    expect(existsSync(marker)).toBe(false);
  });

  it('a project server’s skills need the folder’s trust', async () => {
    await skillServer();
    const run = await fx.run(['-p', '/skills'], { trusted: false });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('sk:');
  });
});
