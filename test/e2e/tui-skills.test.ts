/**
 * A skill's MCP servers (an mcp.json next to its SKILL.md): started when the skill is activated,
 * their tools and resource tools in the next request (and not limited by the skill's whitelist),
 * stopped — no process left, every tool they brought gone from the model's list — when it is
 * deactivated, or when another session is opened (and back with the session that has it). In the
 * TUI (a real pty) and in print mode with `--skill`; not under `--strict-mcp-config`. They run in the
 * one MCP manager: `/mcp` and the panel list them, and plan mode counts their read-only tools.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModel, type RecordedRequest, startFakeModel } from '../fixtures/fake-model.js';
import { isAlive, waitFor } from '../helpers/wait.js';
import { createProject, FIXTURE_SERVERS, type Project, parseJsonOutput, runCli } from './harness.js';
import { KEYS, type PtySession, spawnTui } from './pty.js';

let project: Project;
let fake: FakeModel;
let tui: PtySession | undefined;
let marker: string;

beforeEach(async () => {
  project = await createProject();
  fake = await startFakeModel();
  marker = path.join(project.home, 'started.txt');
  await project.write(
    '.agents/skills/dice/SKILL.md',
    '---\nname: dice\ndescription: Roll dice with the dice server\nallowed-tools: read\n---\nRoll with mcp_sk_dice.\n',
  );
  await project.write(
    '.agents/skills/dice/mcp.json',
    JSON.stringify({
      mcpServers: {
        sk: { command: 'node', args: [path.join(FIXTURE_SERVERS, 'resources-marker.mjs'), marker] },
      },
    }),
  );
});

afterEach(async () => {
  await tui?.dispose();
  tui = undefined;
  await fake.close();
  await project.cleanup();
});

const toolNames = (request: RecordedRequest) =>
  (request.body.tools ?? []).map((tool) => (tool.function as { name: string }).name).sort();
const startedPids = () =>
  existsSync(marker)
    ? [...readFileSync(marker, 'utf8').matchAll(/started (\d+)/g)].map((m) => Number(m[1]))
    : [];

function type(screen: PtySession, text: string): void {
  screen.send(text);
  screen.send(KEYS.enter);
}

describe('skill MCP servers', () => {
  it('start on /use, serve the skill, and stop on /unuse with no process left', async () => {
    tui = spawnTui({ project, modelUrl: fake.url, cols: 120, rows: 40 });
    await tui.waitFor(/Session [a-z0-9]{8}/);
    expect(startedPids()).toEqual([]);
    type(tui, '/use dice');
    await tui.waitFor('skill dice is active');
    const [pid] = await waitFor(() => (startedPids().length > 0 ? startedPids() : undefined), {
      what: 'the skill server to start',
    });
    expect(isAlive(pid!)).toBe(true);
    await tui.waitFor(/Skills\s+dice/);

    fake.push({ text: 'ready to roll' });
    type(tui, 'roll');
    await tui.waitFor('ready to roll');
    expect(toolNames(fake.requests[0]!)).toEqual([
      'mcp_sk_list_resources',
      'mcp_sk_lookup',
      'mcp_sk_read_resource',
      'read',
      'use_skill',
    ]);

    type(tui, '/unuse');
    await tui.waitFor('no skill is active');
    await waitFor(() => !isAlive(pid!), { what: 'the skill server to stop' });
    fake.push({ text: 'no dice' });
    type(tui, 'again');
    await tui.waitFor('no dice');
    expect(toolNames(fake.requests[1]!).filter((name) => name.startsWith('mcp_sk_'))).toEqual([]);
    expect(toolNames(fake.requests[1]!)).toContain('write');
    expect(startedPids()).toHaveLength(1);
  });

  it('follow the session: /new stops them, /open of the session with the skill brings it and them back', async () => {
    tui = spawnTui({ project, modelUrl: fake.url, cols: 120, rows: 40 });
    await tui.waitFor(/Session [a-z0-9]{8}/);
    type(tui, '/save withdice');
    await tui.waitFor(/Session\s+withdice/);
    type(tui, '/use dice');
    await tui.waitFor(/Skills\s+dice/);
    const [first] = await waitFor(() => (startedPids().length > 0 ? startedPids() : undefined), {
      what: 'the skill server to start',
    });

    type(tui, '/new plain');
    await tui.waitFor(/Skills\s+none active/);
    await waitFor(() => !isAlive(first!), { what: 'the skill server to stop' });
    fake.push({ text: 'plain answer' });
    type(tui, 'hello');
    await tui.waitFor('plain answer');
    expect(toolNames(fake.requests[0]!).filter((name) => name.startsWith('mcp_sk_'))).toEqual([]);
    expect(toolNames(fake.requests[0]!)).toContain('write');

    type(tui, '/open withdice');
    await tui.waitFor(/Skills\s+dice/);
    fake.push({ text: 'dice again' });
    type(tui, 'roll');
    await tui.waitFor('dice again');
    expect(toolNames(fake.requests[1]!)).toEqual([
      'mcp_sk_list_resources',
      'mcp_sk_lookup',
      'mcp_sk_read_resource',
      'read',
      'use_skill',
    ]);
    expect(startedPids()).toHaveLength(2);
    expect(isAlive(startedPids()[1]!)).toBe(true);
  });

  it('/use pre-approves allowed-tools for the next turn only; the turn after asks again', async () => {
    await project.write(
      '.agents/skills/sh/SKILL.md',
      '---\nname: sh\ndescription: Shell work\nallowed-tools: run_shell read\n---\nUse the shell.\n',
    );
    const shell = (word: string) => ({
      toolCalls: [{ name: 'run_shell', arguments: JSON.stringify({ command: `echo ${word}` }) }],
    });
    // The pre-approval of run_shell is the subject: unconfined, so the turn after asks again.
    tui = spawnTui({ project, modelUrl: fake.url, cols: 120, rows: 40, env: { GEEKAGENT_SANDBOX: 'off' } });
    await tui.waitFor(/Session [a-z0-9]{8}/);
    type(tui, '/use sh');
    await tui.waitFor('skill sh is active');
    fake.push(shell('first-turn'), { text: 'first done' });
    type(tui, 'go');
    await tui.waitFor('first done');
    expect(tui.screen()).not.toContain('About to run a shell command');
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain('first-turn');

    fake.push(shell('second-turn'), { text: 'second done' });
    type(tui, 'again');
    await tui.waitFor('About to run a shell command');
    tui.send('n');
    await tui.waitFor('second done');
    expect(toolNames(fake.requests[2]!)).toEqual(['read', 'run_shell', 'use_skill']);
  });

  it('--skill starts them for a print run; a run without the skill starts none', async () => {
    fake.push({ text: 'plain' });
    expect((await runCli(['-p', 'hi'], { project, modelUrl: fake.url })).code).toBe(0);
    expect(startedPids()).toEqual([]);
    fake.push({ text: 'rolled' });
    const run = await runCli(['-p', 'roll', '--skill', 'dice'], { project, modelUrl: fake.url });
    expect(run.code, run.stderr).toBe(0);
    expect(toolNames(fake.requests[1]!)).toContain('mcp_sk_lookup');
    const [pid] = startedPids();
    expect(isAlive(pid!)).toBe(false);
  });

  it('/mcp lists an active skill’s server beside the configured ones, with its tools', async () => {
    await project.mcpServers({
      gh: {
        command: 'node',
        args: [path.join(FIXTURE_SERVERS, 'catalog.mjs')],
        env: { CATALOG_SERVER: 'github' },
      },
    });
    const run = await runCli(['-p', '/mcp', '--skill', 'dice'], { project, modelUrl: fake.url });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^gh \(\d+ tools\)$/m);
    expect(run.stdout).toContain('sk (1 tool, skill dice)\n  mcp_sk_lookup\n');
    expect(run.stdout).not.toContain('no MCP servers configured');
    const [pid] = startedPids();
    expect(isAlive(pid!)).toBe(false);
  });

  it('plan mode runs a skill server’s read-only tool (its readOnlyHint counts) and refuses the others', async () => {
    await project.write(
      '.agents/skills/gh/SKILL.md',
      '---\nname: gh\ndescription: GitHub work\n---\nUse the gh tools.\n',
    );
    await project.write(
      '.agents/skills/gh/mcp.json',
      JSON.stringify({
        mcpServers: {
          gh: {
            command: 'node',
            args: [path.join(FIXTURE_SERVERS, 'catalog.mjs')],
            env: { CATALOG_SERVER: 'github' },
          },
        },
      }),
    );
    await project.write(
      '.geekagent/GeekAgent.json',
      JSON.stringify({ annotations: { 'mcp_gh_*': { readOnlyHint: 'allow' } } }),
    );
    const call = (name: string) => ({ toolCalls: [{ name, arguments: '{"owner":"octo"}' }] });
    fake.push(call('mcp_gh_get_issue'), call('mcp_gh_create_issue'), { text: 'planned' });
    const run = await runCli(
      ['-p', 'look', '--skill', 'gh', '--approval-mode', 'plan', '--output-format', 'json'],
      { project, modelUrl: fake.url },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(parseJsonOutput(run).tool_calls.map((c) => [c.name, c.decision, c.is_error])).toEqual([
      ['mcp_gh_get_issue', 'allow', false],
      ['mcp_gh_create_issue', 'refused', true],
    ]);
  });

  it("--strict-mcp-config leaves a skill's own servers unstarted, and says why", async () => {
    fake.push({ text: 'no dice' });
    const run = await runCli(
      ['-p', 'roll', '--skill', 'dice', '--strict-mcp-config', '--mcp-config', '{"mcpServers":{}}'],
      {
        project,
        modelUrl: fake.url,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      'skill dice: the servers of its mcp.json are not started: --strict-mcp-config',
    );
    expect(toolNames(fake.requests[0]!)).not.toContain('mcp_sk_lookup');
    expect(startedPids()).toEqual([]);
  });
});
