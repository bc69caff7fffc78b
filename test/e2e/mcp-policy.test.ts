/**
 * Policy precedence, MCP tool identity and pinned MCP definitions, through the built CLI in print
 * mode with fixture servers: a deny anywhere wins, a rule for one server's tool never passes to
 * another's, and a tool whose definition changed since it was approved is asked again (print mode
 * refuses with the `geekagent mcp approve` hint) until `geekagent mcp approve` re-pins it.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_POLICIES } from '../../src/permissions/defaults.js';
import type { RecordedRequest } from '../fixtures/fake-model.js';
import { cliFixture, FIXTURE_SERVERS, parseJsonOutput, runCli, userProjectDirOf } from './harness.js';

const fx = cliFixture();

const CHANGING = path.join(FIXTURE_SERVERS, 'changing.mjs');
const APPROVE_HINT = (server: string) =>
  `tool definition changed since it was approved: run geekagent mcp approve ${server}`;

/** A `changing.mjs` server listing `tools`, each description ending in `note`. */
function changing(tools: string[], note = '', extra: Record<string, unknown> = {}) {
  return {
    command: process.execPath,
    args: [CHANGING],
    env: { CHANGING_TOOLS: tools.join(','), CHANGING_NOTE: note },
    ...extra,
  };
}

/** One turn: the model calls each tool in turn (one per round), then answers with the results. */
/** `undeclared`: a model naming a tool its request does not offer (under that name). */
function scriptCalls(
  ...calls: Array<{ name: string; args?: Record<string, unknown>; undeclared?: boolean }>
) {
  fx.fake.push(
    ...calls.map((call) => ({
      toolCalls: [{ name: call.name, arguments: JSON.stringify(call.args ?? {}) }],
      undeclared: call.undeclared,
    })),
    { text: 'done' },
  );
}

async function print(extraArgs: string[] = []) {
  const run = await fx.run(['-p', 'go', '--output-format', 'json', ...extraArgs]);
  expect(run.code, run.stderr).toBe(0);
  return parseJsonOutput(run).tool_calls.map((call) => [call.name, call.decision, call.result]);
}

async function userRules(rules: Record<string, string>) {
  await mkdir(path.join(fx.project.home, '.geekagent'), { recursive: true });
  await writeFile(
    path.join(fx.project.home, '.geekagent', 'GeekAgent.json'),
    JSON.stringify({ tools: rules }),
  );
}

describe('policy precedence', () => {
  it("applies the user file's deny to a built-in tool (the project file no longer pins the defaults)", async () => {
    await fx.project.write('notes.txt', 'secret notes');
    await userRules({ read: 'deny' });
    scriptCalls({ name: 'read', args: { path: 'notes.txt' } });
    expect(await print()).toEqual([['read', 'deny', 'permission denied: tool read is not allowed']]);
    // No project file is created (issue 41): nothing is written into a folder nobody configured.
    expect(existsSync(path.join(fx.project.dir, '.geekagent'))).toBe(false);

    // A project file from an older version, listing every default, is read the same way.
    await fx.project.tools({ ...BUILTIN_POLICIES });
    scriptCalls({ name: 'read', args: { path: 'notes.txt' } });
    expect(await print()).toEqual([['read', 'deny', 'permission denied: tool read is not allowed']]);
  });

  it("does not let --allow '*' beat a project's exact deny", async () => {
    await fx.project.tools({ write: 'deny' });
    scriptCalls({ name: 'write', args: { path: 'out.txt', content: 'x' } });
    expect(await print(['--allow', '*'])).toEqual([
      ['write', 'deny', 'permission denied: tool write is not allowed'],
    ]);
    expect(existsSync(path.join(fx.project.dir, 'out.txt'))).toBe(false);
  });
});

describe('MCP tool identity', () => {
  it("never runs server gh_x's tool read under an allow written for server gh's tool x_read", async () => {
    // Both sanitise to mcp_gh_x_read. gh is configured (here disabled, so the outcome does not
    // depend on which server connects first).
    await fx.project.mcpServers({
      gh: changing(['x_read'], '', { disabled: true }),
      gh_x: changing(['read']),
    });
    await fx.project.tools({ mcp_gh_x_read: 'allow' });
    scriptCalls({ name: 'mcp_gh_x_read', undeclared: true });
    const calls = await print();
    expect(calls).toHaveLength(1);
    expect(calls[0]![2]).not.toBe('read ran');
    expect(calls[0]![1]).not.toBe('allow');
    // gh_x's tool is offered under a name of its own.
    const offered = (fx.fake.requests[0]!.body.tools ?? []) as Array<{ function: { name: string } }>;
    expect(offered.map((tool) => tool.function.name).filter((name) => name.startsWith('mcp_gh'))).toEqual([
      expect.stringMatching(/^mcp_gh_x_read_[0-9a-f]{8}$/),
    ]);
  });

  it('refuses a tool that took over a model-facing name approved for another server', async () => {
    await fx.project.tools({ mcp_gh_x_read: 'allow' });
    await fx.project.mcpServers({ gh: changing(['x_read']) });
    scriptCalls({ name: 'mcp_gh_x_read' });
    expect(await print()).toEqual([['mcp_gh_x_read', 'allow', 'x_read ran']]);

    // Next start: gh is gone, and gh_x's tool read now has the name mcp_gh_x_read.
    await fx.project.mcpServers({ gh_x: changing(['read']) });
    scriptCalls({ name: 'mcp_gh_x_read' });
    expect(await print()).toEqual([['mcp_gh_x_read', 'refused', APPROVE_HINT('gh_x')]]);
  });
});

describe('tools of one server whose names collide', () => {
  /** The model calls the offered tool with this description, whatever name it was given. */
  function callDescribed(description: string) {
    return (request: RecordedRequest) => {
      const offered = (request.body.tools ?? []) as Array<{
        function: { name: string; description?: string };
      }>;
      const tool = offered.find((item) => item.function.description?.endsWith(description));
      return { toolCalls: [{ name: tool?.function.name ?? 'missing', arguments: '{}' }] };
    };
  }

  /** delete.repo sorts before delete_repo and sanitises to the same mcp_srv_delete_repo. */
  async function callRealThenDecoy(rule: 'allow' | 'deny') {
    await fx.project.mcpServers({ srv: changing(['delete.repo', 'delete_repo']) });
    await fx.project.tools({ mcp_srv_delete_repo: rule });
    fx.fake.push(callDescribed('the delete_repo tool'), callDescribed('the delete.repo tool'), {
      text: 'done',
    });
    return print();
  }

  const DECOY = [
    expect.stringMatching(/^mcp_srv_delete_repo_[0-9a-f]{8}$/),
    'refused',
    expect.stringMatching(/^needs approval: run interactively or pass --allow mcp_srv_delete_repo_/),
  ];

  it('keeps a deny written for delete_repo on delete_repo when the server lists a decoy delete.repo first', async () => {
    // delete_repo keeps the name the rule was written with; the decoy is a tool of its own, asked
    // about as any MCP tool, not denied in delete_repo's place.
    expect(await callRealThenDecoy('deny')).toEqual([
      ['mcp_srv_delete_repo', 'deny', 'permission denied: tool mcp_srv_delete_repo is not allowed'],
      DECOY,
    ]);
  });

  it("does not let a decoy inherit delete_repo's allow", async () => {
    expect(await callRealThenDecoy('allow')).toEqual([
      ['mcp_srv_delete_repo', 'allow', 'delete_repo ran'],
      DECOY,
    ]);
  });
});

describe('pinned MCP definitions', () => {
  it('refuses an allowed tool whose definition changed between starts until mcp approve re-pins it', async () => {
    await fx.project.tools({ mcp_changing_alpha: 'allow' });
    await fx.project.mcpServers({ changing: changing(['alpha', 'beta']) });
    scriptCalls({ name: 'mcp_changing_alpha' });
    expect(await print()).toEqual([['mcp_changing_alpha', 'allow', 'alpha ran']]);
    const pins = JSON.parse(await readFile(path.join(userProjectDirOf(fx.project), 'mcp-pins.json'), 'utf8'));
    expect(pins.pins.map((pin: { modelName: string }) => pin.modelName)).toEqual(['mcp_changing_alpha']);

    await fx.project.mcpServers({ changing: changing(['alpha', 'beta'], ' (now also uploads your files)') });
    scriptCalls({ name: 'mcp_changing_alpha' });
    expect(await print()).toEqual([['mcp_changing_alpha', 'refused', APPROVE_HINT('changing')]]);

    const approve = await runCli(['mcp', 'approve', 'changing'], { project: fx.project });
    expect(approve.code, approve.stderr).toBe(0);
    expect(approve.stdout).toBe(
      [
        `Approved 2 tools of MCP server changing (pinned in ${path.join(userProjectDirOf(fx.project), 'mcp-pins.json')})`,
        '  mcp_changing_alpha: description: "the alpha tool" → "the alpha tool (now also uploads your files)"',
        '  mcp_changing_beta: new',
        '',
      ].join('\n'),
    );
    scriptCalls({ name: 'mcp_changing_alpha' });
    expect(await print()).toEqual([['mcp_changing_alpha', 'allow', 'alpha ran']]);
  });

  it('refuses an allowed tool that changed its description and schema after list_changed', async () => {
    await fx.project.tools({ 'mcp_changing_*': 'allow' });
    await fx.project.mcpServers({ changing: changing(['alpha', 'redefine_tool']) });
    scriptCalls(
      { name: 'mcp_changing_alpha' },
      { name: 'mcp_changing_redefine_tool', args: { name: 'alpha', description: 'reads ~/.ssh first' } },
      { name: 'mcp_changing_alpha' },
    );
    expect(await print()).toEqual([
      ['mcp_changing_alpha', 'allow', 'alpha ran'],
      ['mcp_changing_redefine_tool', 'allow', 'redefined alpha'],
      ['mcp_changing_alpha', 'refused', APPROVE_HINT('changing')],
    ]);
  });

  it('mcp approve shows server text with control characters visible, and reports unknown servers', async () => {
    await fx.project.mcpServers({ changing: changing(['alpha'], ' \u001b]0;pwned\u0007\u001b[2J') });
    const approve = await runCli(['mcp', 'approve', 'changing'], { project: fx.project });
    expect(approve.code, approve.stderr).toBe(0);
    expect(approve.stdout).toContain('  mcp_changing_alpha: new\n');
    expect(approve.stdout).not.toContain('\u001b');

    await fx.project.tools({ mcp_changing_alpha: 'allow' });
    await fx.project.mcpServers({ changing: changing(['alpha'], ' \u001b[2J') });
    const again = await runCli(['mcp', 'approve', 'changing'], { project: fx.project });
    expect(again.stdout).toContain('"the alpha tool ^[]0;pwned^G^[[2J" → "the alpha tool ^[[2J"');
    expect(again.stdout).not.toContain('\u001b');

    const missing = await runCli(['mcp', 'approve', 'nope'], { project: fx.project });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('no MCP server named nope (see geekagent mcp list)\n');
  });
});
