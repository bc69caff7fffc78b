/**
 * Policies by MCP tool annotation through the built CLI in print mode, with the catalog fixture
 * serving GitHub-like tools (get_issue claims readOnlyHint, delete_file destructiveHint,
 * create_issue nothing): an annotation allow runs without asking, an annotation ask is refused in
 * print mode, an explicit tool rule beats an annotation rule, an annotation deny beats any allow,
 * and an untrusted folder's annotation allow is ignored (the user's own file still counts).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFixture, FIXTURE_SERVERS, parseJsonOutput } from './harness.js';

const fx = cliFixture();

const GH = {
  command: process.execPath,
  args: [path.join(FIXTURE_SERVERS, 'catalog.mjs')],
  env: { CATALOG_SERVER: 'github' },
};
const READ = 'mcp_gh_get_issue';
const DELETE = 'mcp_gh_delete_file';
const CREATE = 'mcp_gh_create_issue';

async function projectConfig(config: Record<string, unknown>) {
  await fx.project.write('.geekagent/GeekAgent.json', JSON.stringify({ root: '..', tools: {}, ...config }));
}

async function userFile(name: string, content: unknown) {
  const dir = path.join(fx.project.home, '.geekagent');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, name), JSON.stringify(content));
}

/** One turn calling each tool in its own round; returns [name, decision, is_error] per call. */
async function callEach(names: string[], trusted = true) {
  fx.fake.push(...names.map((name) => ({ toolCalls: [{ name, arguments: '{"owner":"octo"}' }] })), {
    text: 'done',
  });
  const run = await fx.run(['-p', 'go', '--output-format', 'json'], { trusted });
  expect(run.code, run.stderr).toBe(0);
  return {
    calls: parseJsonOutput(run).tool_calls.map((call) => [call.name, call.decision, call.is_error]),
    stderr: run.stderr,
  };
}

describe('annotation policies', () => {
  it('readOnlyHint allow runs unasked; destructiveHint ask and unannotated tools are refused in print mode', async () => {
    await fx.project.mcpServers({ gh: GH });
    await projectConfig({ annotations: { 'mcp_gh_*': { readOnlyHint: 'allow', destructiveHint: 'ask' } } });
    const { calls } = await callEach([READ, DELETE, CREATE]);
    expect(calls).toEqual([
      [READ, 'allow', false],
      [DELETE, 'refused', true],
      [CREATE, 'refused', true],
    ]);
  });

  it('an explicit tool rule beats an annotation rule; an annotation deny beats every allow', async () => {
    await fx.project.mcpServers({ gh: GH });
    await projectConfig({
      tools: { [READ]: 'ask', [DELETE]: 'allow' },
      annotations: { 'mcp_gh_*': { readOnlyHint: 'allow', destructiveHint: 'ask' } },
    });
    expect((await callEach([READ, DELETE])).calls).toEqual([
      [READ, 'refused', true],
      [DELETE, 'allow', false],
    ]);

    await projectConfig({
      tools: { 'mcp_gh_*': 'allow' },
      annotations: { 'mcp:gh/*': { destructiveHint: 'deny' } },
    });
    expect((await callEach([DELETE, READ])).calls).toEqual([
      [DELETE, 'deny', true],
      [READ, 'allow', false],
    ]);
  });

  it("ignores an untrusted folder's annotation allow; the user's own annotation rules apply", async () => {
    await userFile('mcp.json', { mcpServers: { gh: GH } });
    await projectConfig({ annotations: { 'mcp_gh_*': { readOnlyHint: 'allow' } } });
    const untrusted = await callEach([READ], false);
    expect(untrusted.calls).toEqual([[READ, 'refused', true]]);
    expect(untrusted.stderr).toContain('folder not trusted: ignoring 1 allow rule');

    // Trusted, the same project rule holds.
    expect((await callEach([READ])).calls).toEqual([[READ, 'allow', false]]);

    await projectConfig({});
    await userFile('GeekAgent.json', { annotations: { 'mcp_gh_*': { readOnlyHint: 'allow' } } });
    expect((await callEach([READ], false)).calls).toEqual([[READ, 'allow', false]]);
  });

  it('names the file and the bad hint when an annotation rule is malformed', async () => {
    await projectConfig({ annotations: { 'mcp_gh_*': { readonly: 'allow' } } });
    const run = await fx.run(['-p', 'go']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('GeekAgent.json');
    expect(run.stderr).toContain('annotations');
  });
});
