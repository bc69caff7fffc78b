/**
 * `--mcp-config <file-or-json>` (repeatable) adds servers for one run, `--strict-mcp-config` uses
 * only those; the model sees their tools. They are the person's own: no folder trust needed.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { createProject, DEMO_SERVER, type Project, parseJsonOutput, runCli } from './harness.js';
import { KEYS, type PtySession, spawnTui } from './pty.js';

let project: Project;
let fake: FakeModel;

beforeEach(async () => {
  project = await createProject();
  fake = await startFakeModel();
  await project.mcpServers({ proj: { command: 'node', args: [DEMO_SERVER] } });
});

const sessions: PtySession[] = [];

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.dispose()));
  await fake.close();
  await project.cleanup();
});

const demo = { command: 'node', args: [DEMO_SERVER] };

function toolNames(index = 0): string[] {
  const tools = (fake.requests[index]?.body.tools ?? []) as Array<{ function: { name: string } }>;
  return tools.map((tool) => tool.function.name);
}

describe('--mcp-config', () => {
  it('a file adds its servers to the configured ones, for this run only', async () => {
    const file = path.join(project.home, 'servers.json');
    await writeFile(file, JSON.stringify({ mcpServers: { extra: demo } }));
    fake.push({ text: 'ok' });
    const run = await runCli(['-p', 'hi', '--mcp-config', file], { project, modelUrl: fake.url });
    expect(run.code, run.stderr).toBe(0);
    expect(toolNames()).toEqual(expect.arrayContaining(['mcp_extra_dice', 'mcp_proj_dice']));
    expect(await runCli(['mcp', 'list', '--json'], { project }).then((r) => r.stdout)).not.toContain('extra');
  });

  it('inline JSON runs in an untrusted folder and its tool is called; --strict-mcp-config drops the project file', async () => {
    fake.push({ toolCalls: [{ name: 'mcp_inline_dice', arguments: '{}' }] }, { text: 'rolled' });
    const run = await runCli(
      [
        '-p',
        'roll',
        '--output-format',
        'json',
        '--allow',
        'mcp_inline_*',
        '--mcp-config',
        JSON.stringify({ mcpServers: { inline: demo } }),
        '--strict-mcp-config',
      ],
      { project, modelUrl: fake.url, trusted: false },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(toolNames()).toContain('mcp_inline_dice');
    expect(toolNames().some((name) => name.startsWith('mcp_proj_'))).toBe(false);
    expect(parseJsonOutput(run).tool_calls[0]!.result).toMatch(/^Roll: [1-6]$/);
  });

  it('--strict-mcp-config ignores a trusted project file and the user file', async () => {
    await mkdir(path.join(project.home, '.geekagent'), { recursive: true });
    await writeFile(
      path.join(project.home, '.geekagent', 'mcp.json'),
      JSON.stringify({ mcpServers: { mine: demo } }),
    );
    fake.push({ text: 'ok' }, { text: 'ok' });
    const loose = await runCli(['-p', 'hi', '--mcp-config', JSON.stringify({ mcpServers: { only: demo } })], {
      project,
      modelUrl: fake.url,
    });
    expect(loose.code, loose.stderr).toBe(0);
    expect(toolNames(0)).toEqual(expect.arrayContaining(['mcp_only_dice', 'mcp_proj_dice', 'mcp_mine_dice']));
    const strict = await runCli(
      ['-p', 'hi', '--strict-mcp-config', '--mcp-config', JSON.stringify({ mcpServers: { only: demo } })],
      { project, modelUrl: fake.url },
    );
    expect(strict.code, strict.stderr).toBe(0);
    expect(toolNames(1).filter((name) => name.startsWith('mcp_'))).toEqual([
      'mcp_only_word_count',
      'mcp_only_dice',
    ]);
  });

  it('a same-named server from the command line replaces the configured one (with a notice)', async () => {
    fake.push({ text: 'ok' });
    const run = await runCli(
      [
        '-p',
        'hi',
        '--mcp-config',
        JSON.stringify({ mcpServers: { proj: { ...demo, includeTools: ['dice'] } } }),
      ],
      { project, modelUrl: fake.url },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('MCP server proj from --mcp-config replaces the one in');
    expect(toolNames().filter((name) => name.startsWith('mcp_'))).toEqual(['mcp_proj_dice']);
  });

  it('Claude Code entries are accepted (headersHelper left out with a notice); bad input names the problem', async () => {
    fake.push({ text: 'ok' });
    const claude = {
      mcpServers: {
        cc: { type: 'stdio', ...demo },
        web: { type: 'http', url: 'http://127.0.0.1:9/mcp', headersHelper: 'x' },
      },
    };
    const run = await runCli(['-p', 'hi', '--mcp-config', JSON.stringify(claude)], {
      project,
      modelUrl: fake.url,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('--mcp-config: MCP server web: left out headersHelper');
    expect(toolNames()).toContain('mcp_cc_dice');

    const typo = await runCli(
      ['-p', 'hi', '--mcp-config', '{"mcpServers":{"x":{"command":"node","timout":1}}}'],
      {
        project,
        modelUrl: fake.url,
      },
    );
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain(
      '--mcp-config: at mcpServers.x.timout: unknown key "timout" (did you mean "timeout"?)',
    );
    const missing = await runCli(['-p', 'hi', '--mcp-config', 'nope.json'], { project, modelUrl: fake.url });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`--mcp-config: no such file: ${path.join(project.dir, 'nope.json')}`);
  });

  it('the TUI takes them too: --strict-mcp-config shows only the command-line server, whose tools the model gets', async () => {
    const tui = spawnTui({
      project,
      modelUrl: fake.url,
      args: ['--strict-mcp-config', '--mcp-config', JSON.stringify({ mcpServers: { only: demo } })],
    });
    sessions.push(tui);
    await tui.waitFor('MCP only(2)');
    expect(tui.screen()).not.toMatch(/MCP .*proj\(/);
    fake.push({ text: 'answered' });
    tui.send('hi');
    tui.send(KEYS.enter);
    await tui.waitFor('answered');
    expect(toolNames()).toContain('mcp_only_dice');
    expect(toolNames().some((name) => name.startsWith('mcp_proj_'))).toBe(false);
  });
});

describe('geekagent mcp list/get/call take --mcp-config and --strict-mcp-config too', () => {
  const listed = async (args: string[], trusted?: boolean) => {
    const run = await runCli(['mcp', 'list', '--json', ...args], { project, trusted });
    expect(run.code, run.stderr).toBe(0);
    return (JSON.parse(run.stdout) as Array<{ name: string; status: string }>).map(
      (server) => `${server.name}:${server.status}`,
    );
  };

  it("list shows a file's servers next to the configured ones (the flag before or after the subcommand)", async () => {
    const file = path.join(project.home, 'servers.json');
    await writeFile(file, JSON.stringify({ mcpServers: { extra: demo } }));
    expect(await listed(['--mcp-config', file])).toEqual(['proj:connected', 'extra:connected']);
    const before = await runCli(['--mcp-config', file, 'mcp', 'list'], { project });
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toContain('extra (2 tools)');
    expect(before.stdout).toContain('proj (2 tools)');
  });

  it('inline JSON: get shows where it comes from and call runs its tool, in an untrusted folder too', async () => {
    const inline = JSON.stringify({ mcpServers: { inline: demo } });
    expect(await listed(['--mcp-config', inline], false)).toEqual(['inline:connected']);
    const get = await runCli(['mcp', 'get', 'inline', '--mcp-config', inline], { project, trusted: false });
    expect(get.code, get.stderr).toBe(0);
    expect(get.stdout).toContain('source: --mcp-config (cli)');
    const call = await runCli(['mcp', 'call', 'inline', 'dice', '--mcp-config', inline], {
      project,
      trusted: false,
    });
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toMatch(/^Roll: [1-6]$/m);
  });

  it('--strict-mcp-config lists only the command-line servers; get of a file server then finds none', async () => {
    const only = JSON.stringify({ mcpServers: { only: demo } });
    expect(await listed(['--strict-mcp-config', '--mcp-config', only])).toEqual(['only:connected']);
    const get = await runCli(['mcp', 'get', 'proj', '--strict-mcp-config', '--mcp-config', only], {
      project,
    });
    expect(get.code).toBe(1);
    expect(get.stderr).toContain('no MCP server named proj');
  });

  it('a bad value is a clear error naming it; a command that only edits files refuses the flags', async () => {
    const missing = await runCli(['mcp', 'list', '--mcp-config', 'nope.json'], { project });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`--mcp-config: no such file: ${path.join(project.dir, 'nope.json')}`);
    const typo = await runCli(
      ['mcp', 'call', 'x', 'dice', '--mcp-config', '{"mcpServers":{"x":{"command":"node","timout":1}}}'],
      { project },
    );
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain(
      '--mcp-config: at mcpServers.x.timout: unknown key "timout" (did you mean "timeout"?)',
    );
    const add = await runCli(['mcp', 'add', 'other', '--mcp-config', 'x.json', '--', 'node', DEMO_SERVER], {
      project,
    });
    expect(add.code).toBe(1);
    expect(add.stderr).toContain('not to geekagent mcp add');
    expect(await listed([])).toEqual(['proj:connected']);
  });
});
