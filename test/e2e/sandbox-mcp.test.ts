/**
 * Confined stdio servers (issue 27), through the built CLI: a server whose tools each try a way
 * out — a hidden credential, a write outside the root, into the agent's config, through a symlink,
 * a loopback connection, a process left behind — is refused every one of them under `"sandbox"`,
 * and gets every one without it. Nothing of a confined server outlives the run.
 */

import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { subAgentOf } from '../fixtures/fake-model.js';
import { describeWithSandbox, itWithSandbox } from '../helpers/sandbox-gate.js';
import { isAlive, waitFor } from '../helpers/wait.js';
import { CLI, cliFixture, FIXTURE_SERVERS, parseJsonOutput, type RunResult, testEnv } from './harness.js';

const fx = cliFixture();
const ESCAPE = path.join(FIXTURE_SERVERS, 'escape.mjs');
const SECRET = 'BEGIN FAKE PRIVATE KEY';

/** Live pids whose command line carries `token` (from /proc: a sandbox's pid namespace included). */
/** Live children of `parent` whose command is `name` (from /proc/<pid>/stat). */
function childrenOf(parent: number, name: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      if (comm === name && Number(stat.slice(close + 2).split(' ')[1]) === parent) found.push(Number(entry));
    } catch {
      // ended while we looked
    }
  }
  return found;
}

function processesWith(token: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(token) && isAlive(Number(entry))) found.push(Number(entry));
    } catch {
      // ended while we looked
    }
  }
  return found;
}

const leftBehind: number[] = [];
const listeners: net.Server[] = [];
afterEach(async () => {
  for (const pid of leftBehind.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await Promise.all(listeners.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** A loopback server that counts the connections it gets. */
async function loopback(): Promise<{ port: number; connections: () => number }> {
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    socket.resume();
  });
  listeners.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, connections: () => count };
}

async function setUp(entry: Record<string, unknown>, token: string) {
  const { project } = fx;
  await mkdir(path.join(project.home, '.ssh'), { recursive: true });
  await writeFile(path.join(project.home, '.ssh', 'id_rsa'), `${SECRET}\n`);
  await project.write('.geekagent/GeekAgent.json', '{}\n');
  await project.mcpServers({ escape: { command: 'node', args: [ESCAPE, token], ...entry } });
  const outsideDir = path.dirname(project.dir);
  return {
    outside: path.join(outsideDir, 'outside'),
    through: path.join(outsideDir, 'through.txt'),
    call: (tool: string, args: Record<string, unknown> = {}): Promise<RunResult> =>
      fx.run(['mcp', 'call', 'escape', tool, JSON.stringify(args)]),
  };
}

/** Every way out, tried once each; what each call printed, and what it left on disk. */
async function tryEverything(entry: Record<string, unknown>, token: string) {
  const { call, outside, through } = await setUp(entry, token);
  const listener = await loopback();
  const results = {
    secret: await call('read_file', { path: path.join(fx.project.home, '.ssh', 'id_rsa') }),
    outside: await call('write_file', { path: '../outside', text: 'out' }),
    config: await call('write_file', { path: '.geekagent/GeekAgent.json', text: '{"tools":{"*":"allow"}}' }),
    link: await call('write_through_link', {
      link: 'out-link',
      target: path.dirname(fx.project.dir),
      text: 'x',
    }),
    connect: await call('connect', { port: listener.port }),
    background: await call('leave_background'),
    inside: await call('write_file', { path: 'inside.txt', text: 'in' }),
  };
  return { results, outside, through, listener };
}

const said = (run: RunResult) => `${run.stdout}${run.stderr}`;

describe('a stdio server with "sandbox": true', () => {
  itWithSandbox(
    'is refused every way out, still works inside the project, and leaves no process behind',
    async () => {
      const token = `sbx-confined-${process.pid}-${Date.now()}`;
      const { results, outside, through, listener } = await tryEverything({ sandbox: true }, token);
      expect(said(results.secret)).toMatch(/^refused: /);
      expect(said(results.secret)).not.toContain(SECRET);
      expect(said(results.outside)).toMatch(/^refused: EROFS/);
      expect(existsSync(outside)).toBe(false);
      expect(said(results.config)).toMatch(/^refused: EROFS/);
      expect(await readFile(path.join(fx.project.dir, '.geekagent', 'GeekAgent.json'), 'utf8')).toBe('{}\n');
      expect(said(results.link)).toMatch(/^refused: EROFS/);
      expect(existsSync(through)).toBe(false);
      expect(said(results.connect)).toMatch(/^refused: /);
      expect(listener.connections()).toBe(0);
      // Started inside the sandbox, it dies with it: the run ends and nothing carries the token.
      expect(said(results.background)).toContain('done: started a background process');
      await waitFor(() => processesWith(token).length === 0, { what: 'no process of the confined server' });
      expect(said(results.inside)).toContain('done: wrote');
      expect(await readFile(path.join(fx.project.dir, 'inside.txt'), 'utf8')).toBe('in');
      for (const run of Object.values(results)) expect(run.stderr).not.toContain('must run in the sandbox');
    },
  );

  it('without "sandbox" the same server gets every one of them (what confinement takes away)', async () => {
    const token = `sbx-open-${process.pid}-${Date.now()}`;
    const { results, outside, through, listener } = await tryEverything({}, token);
    expect(said(results.secret)).toContain(SECRET);
    expect(await readFile(outside, 'utf8')).toBe('out');
    expect(said(results.config)).toContain('done: wrote');
    expect(await readFile(through, 'utf8')).toBe('x');
    expect(said(results.connect)).toContain('done: connected');
    await waitFor(() => listener.connections() === 1, { what: 'the loopback connection' });
    // Unconfined, a detached process outlives the server's process group: the escape works.
    const survivors = await waitFor(() => {
      const pids = processesWith(`${token}-background`);
      return pids.length > 0 ? pids : undefined;
    });
    leftBehind.push(...survivors);
  });

  itWithSandbox('mcp list says the server is sandboxed', async () => {
    await setUp({ sandbox: true }, `sbx-list-${process.pid}`);
    const text = await fx.run(['mcp', 'list']);
    expect(text.stdout).toContain('escape (5 tools, sandboxed)');
    const json = JSON.parse((await fx.run(['mcp', 'list', '--json'])).stdout) as Array<
      Record<string, unknown>
    >;
    expect(json[0]).toMatchObject({ name: 'escape', status: 'connected', sandboxed: true });
  });

  itWithSandbox('an allowWrite grant opens that folder and no other', async () => {
    const { call, outside } = await setUp(
      { sandbox: { allowWrite: ['../granted'] } },
      `sbx-grant-${process.pid}`,
    );
    const granted = path.join(path.dirname(fx.project.dir), 'granted');
    await mkdir(granted);
    expect(said(await call('write_file', { path: '../granted/file.txt', text: 'ok' }))).toContain(
      'done: wrote',
    );
    expect(await readFile(path.join(granted, 'file.txt'), 'utf8')).toBe('ok');
    expect(said(await call('write_file', { path: '../outside', text: 'out' }))).toMatch(/^refused: EROFS/);
    expect(existsSync(outside)).toBe(false);
  });

  it('where the sandbox cannot run, the server is not started: the error names it and the fix', async () => {
    const { outside } = await setUp({ sandbox: true }, `sbx-unavailable-${process.pid}`);
    const run = await fx.run(['mcp', 'call', 'escape', 'write_file', '{"path":"../outside","text":"out"}'], {
      env: { GEEKAGENT_SANDBOX_BWRAP: path.join(fx.project.home, 'no-bwrap-here') },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('server "escape" must run in the sandbox');
    expect(run.stderr).toContain('the sandbox is unavailable');
    expect(run.stderr).toMatch(/Fix: .*bubblewrap/);
    expect(existsSync(outside)).toBe(false);
  });
});

describeWithSandbox("geekagent mcp list / call take the run's sandbox mode, as the agent does", () => {
  it('--sandbox read-only and GEEKAGENT_SANDBOX=read-only refuse a write inside the root; off starts no confined server', async () => {
    await setUp({ sandbox: true }, `sbx-mode-${process.pid}`);
    const inside = path.join(fx.project.dir, 'inside.txt');
    const write = ['mcp', 'call', 'escape', 'write_file', '{"path":"inside.txt","text":"in"}'];
    expect(said(await fx.run([...write, '--sandbox', 'read-only']))).toMatch(/^refused: EROFS/);
    expect(said(await fx.run(write, { env: { GEEKAGENT_SANDBOX: 'read-only' } }))).toMatch(/^refused: EROFS/);
    expect(existsSync(inside)).toBe(false);
    for (const run of [
      await fx.run(['mcp', 'list', '--sandbox', 'off']),
      await fx.run(write, { env: { GEEKAGENT_SANDBOX: 'off' } }),
    ]) {
      expect(run.stdout + run.stderr).toContain('server "escape" must run in the sandbox');
    }
    expect(existsSync(inside)).toBe(false);
    // The flag wins over the environment; without either, the server writes inside the root.
    expect(
      said(await fx.run([...write, '--sandbox', 'workspace-write'], { env: { GEEKAGENT_SANDBOX: 'off' } })),
    ).toContain('done: wrote');
    expect(await readFile(inside, 'utf8')).toBe('in');
  });
});

describeWithSandbox('the user\'s "sandbox": {"projectServers": true}', () => {
  it('confines a project server although its entry says "sandbox": false', async () => {
    const { call, outside } = await setUp({ sandbox: false }, `sbx-default-${process.pid}`);
    await mkdir(path.join(fx.project.home, '.geekagent'), { recursive: true });
    await writeFile(
      path.join(fx.project.home, '.geekagent', 'mcp.json'),
      JSON.stringify({ sandbox: { projectServers: true } }),
    );
    expect(said(await call('write_file', { path: '../outside', text: 'out' }))).toMatch(/^refused: EROFS/);
    expect(existsSync(outside)).toBe(false);
    expect((await fx.run(['mcp', 'list'])).stdout).toContain('escape (5 tools, sandboxed)');
  });
});

describe('"sandbox" on a remote server', () => {
  it('is a config error naming the server', async () => {
    await fx.project.mcpServers({ remote: { type: 'http', url: 'http://127.0.0.1:9/mcp', sandbox: true } });
    const run = await fx.run(['mcp', 'list']);
    expect(run.stdout + run.stderr).toContain(
      'at mcpServers.remote.sandbox: "sandbox" confines a local (stdio) server; server "remote" is remote (http)',
    );
  });
});

const SKILL_MD =
  '---\nname: escaper\ndescription: Tries to get out\ntools_exec:\n  out: "bin/out.sh -- Write and read"\n---\nGo.\n';
const SKILL_SCRIPT =
  '#!/bin/sh\necho skill > "$1" 2>&1 || echo "write refused"\ncat "$2" 2>&1 || echo "read refused"\n';

/** A project skill whose tool writes its first argument's file and prints its second's content. */
async function escapingSkill(): Promise<void> {
  await fx.project.write('.agents/skills/escaper/SKILL.md', SKILL_MD);
  const script = await fx.project.write('.agents/skills/escaper/bin/out.sh', SKILL_SCRIPT);
  await chmod(script, 0o755);
}

/** The same skill as the person's own, in the user state folder (hidden from confined commands). */
async function userEscapingSkill(): Promise<void> {
  const dir = path.join(fx.project.home, '.geekagent', 'skills', 'escaper');
  await mkdir(path.join(dir, 'bin'), { recursive: true });
  await writeFile(path.join(dir, 'SKILL.md'), SKILL_MD);
  await writeFile(path.join(dir, 'bin', 'out.sh'), SKILL_SCRIPT);
  await chmod(path.join(dir, 'bin', 'out.sh'), 0o755);
}

describeWithSandbox("a project skill tool runs under the run's sandbox, like run_shell", () => {
  it('confined by default: no write outside the root, no secret; --sandbox off: both', async () => {
    await escapingSkill();
    await mkdir(path.join(fx.project.home, '.ssh'), { recursive: true });
    await writeFile(path.join(fx.project.home, '.ssh', 'id_rsa'), `${SECRET}\n`);
    const outside = path.join(path.dirname(fx.project.dir), 'outside-skill');
    const secret = path.join(fx.project.home, '.ssh', 'id_rsa');
    const call = {
      toolCalls: [{ name: 'skill_escaper_out', arguments: JSON.stringify({ args: [outside, secret] }) }],
    };
    const args = [
      '-p',
      'go',
      '--skill',
      'escaper',
      '--allow',
      'skill_escaper_out',
      '--output-format',
      'json',
    ];
    fx.fake.push(call, { text: 'done' });
    const confined = parseJsonOutput(await fx.run(args)).tool_calls[0]!;
    expect(confined.decision).toBe('allow');
    expect(confined.result).toContain('write refused');
    expect(confined.result).not.toContain(SECRET);
    expect(existsSync(outside)).toBe(false);

    fx.fake.push(call, { text: 'done' });
    const open = parseJsonOutput(await fx.run([...args, '--sandbox', 'off'])).tool_calls[0]!;
    expect(open.result).toContain(SECRET);
    expect(await readFile(outside, 'utf8')).toBe('skill\n');
  });
});

describeWithSandbox("a user skill's tool runs under the run's sandbox too", () => {
  it('confined: no write outside the root, no secret, no write at all under read-only; --sandbox off: all', async () => {
    await userEscapingSkill();
    await mkdir(path.join(fx.project.home, '.ssh'), { recursive: true });
    await writeFile(path.join(fx.project.home, '.ssh', 'id_rsa'), `${SECRET}\n`);
    const outside = path.join(path.dirname(fx.project.dir), 'outside-user-skill');
    const inside = path.join(fx.project.dir, 'inside-user-skill');
    const secret = path.join(fx.project.home, '.ssh', 'id_rsa');
    const call = (target: string) => ({
      toolCalls: [{ name: 'skill_escaper_out', arguments: JSON.stringify({ args: [target, secret] }) }],
    });
    const args = [
      '-p',
      'go',
      '--skill',
      'escaper',
      '--allow',
      'skill_escaper_out',
      '--output-format',
      'json',
    ];
    const run = async (target: string, flags: string[] = []) => {
      fx.fake.push(call(target), { text: 'done' });
      const result = await fx.run([...args, ...flags]);
      return parseJsonOutput(result).tool_calls[0]!;
    };
    const confined = await run(outside);
    expect(confined.decision).toBe('allow');
    // It ran (its folder stays readable to it) and was refused both ways out.
    expect(confined.result).toContain('write refused');
    expect(confined.result).not.toContain(SECRET);
    expect(existsSync(outside)).toBe(false);

    const readOnly = await run(inside, ['--sandbox', 'read-only']);
    expect(readOnly.result).toContain('write refused');
    expect(existsSync(inside)).toBe(false);

    const open = await run(outside, ['--sandbox', 'off']);
    expect(open.result).toContain(SECRET);
    expect(await readFile(outside, 'utf8')).toBe('skill\n');
  });
});

describeWithSandbox('geekagent mcp serve runs its shell under the sandbox', () => {
  it('run_shell served to another client cannot write outside the root; with --sandbox off it can', async () => {
    const outside = path.join(path.dirname(fx.project.dir), 'outside-served');
    const served = (flags: string[]) => ({
      command: process.execPath,
      args: [CLI, ...flags, 'mcp', 'serve'],
      env: { GEEKAGENT_HOME: path.join(fx.project.home, '.geekagent'), HOME: fx.project.home },
    });
    const command = JSON.stringify({ command: `echo served > ${outside}` });
    await fx.project.mcpServers({ self: served(['--trust']) });
    const confined = await fx.run(['mcp', 'call', 'self', 'run_shell', command]);
    expect(said(confined)).toContain('[sandbox]');
    expect(existsSync(outside)).toBe(false);

    await fx.project.mcpServers({ self: served(['--trust', '--sandbox', 'off', '--allow', 'run_shell']) });
    const open = await fx.run(['mcp', 'call', 'self', 'run_shell', command]);
    expect(open.code, said(open)).toBe(0);
    expect(await readFile(outside, 'utf8')).toBe('served\n');
  });
});

describe('what a project server\'s "sandbox" grants is part of the folder\'s trust', () => {
  it('geekagent trust lists the grants; a widened grant untrusts the folder', async () => {
    const entry = (allowWrite: string[]) => ({
      escape: {
        command: 'node',
        args: [ESCAPE],
        sandbox: { allowWrite, network: { allow: ['db.example.com'] }, denyRead: ['secrets'] },
      },
    });
    await fx.project.mcpServers(entry(['../data']));
    const trust = await fx.run(['trust'], { trusted: false });
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toContain(
      'MCP server escape runs sandboxed but may write "../data" and reach "db.example.com"',
    );
    expect((await fx.run(['mcp', 'list'], { trusted: false })).stderr).not.toContain('not trusted');

    await fx.project.mcpServers(entry(['../data', '/']));
    const changed = await fx.run(['mcp', 'list'], { trusted: false });
    expect(changed.stderr).toContain('folder changed since you trusted it');
    expect(changed.stdout).not.toContain('escape (');
  });
});

describeWithSandbox("a sub-agent gets the main agent's sandbox", () => {
  it('its run_shell runs confined, unasked: the write outside the root is refused', async () => {
    const outside = path.join(path.dirname(fx.project.dir), 'outside-child');
    await fx.project.write(
      '.geekagent/agents/shell.md',
      '---\nname: shell\ndescription: runs commands\ntools: [run_shell]\nmax_rounds: 3\n---\nRun it.\n',
    );
    const shell = { name: 'run_shell', arguments: JSON.stringify({ command: `echo child > ${outside}` }) };
    fx.fake.push(
      {
        toolCalls: [
          { name: 'delegate_task', arguments: JSON.stringify({ task: 'write it', agent: 'shell' }) },
        ],
      },
      { text: 'parent done' },
    );
    fx.fake.pushFor('shell', { toolCalls: [shell] }, { text: 'child done' });
    const run = await fx.run(['-p', 'go', '--output-format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const child = (JSON.parse(run.stdout) as { agents: Array<{ tool_calls: Array<{ decision: string }> }> })
      .agents[0]!;
    expect(child.tool_calls[0]!.decision).toBe('allow');
    const childResult = fx.fake.requests
      .filter((request) => subAgentOf(request) === 'shell')
      .at(-1)!
      .body.messages.filter((m) => m.role === 'tool')
      .map((m) => String(m.content))
      .join('\n');
    expect(childResult).toContain('[sandbox]');
    expect(existsSync(outside)).toBe(false);
  });
});

describeWithSandbox("a confined server and the agent's end", () => {
  it('SIGKILL of the agent mid-turn: the reaper takes the sandbox and everything in it down', async () => {
    const token = `sbx-kill-${process.pid}-${Date.now()}`;
    await setUp({ sandbox: true }, token);
    fx.fake.push({ kind: 'hang' });
    const agent = spawn(process.execPath, [CLI, '--trust', '-p', 'hang please'], {
      cwd: fx.project.dir,
      env: testEnv({ project: fx.project, modelUrl: fx.fake.url }),
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      agent.once('exit', (_, signal) => resolve(signal)),
    );
    // The first request waits for every server to connect: the confined one is running now.
    await fx.fake.waitForRequests(1);
    expect(processesWith(token).length).toBeGreaterThan(0);
    // The library's proxy bridges run beside the agent, in its own process group.
    const bridges = childrenOf(agent.pid!, 'socat');
    expect(bridges.length).toBeGreaterThan(0);
    agent.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    await waitFor(() => processesWith(token).length === 0, { what: 'no process of the confined server' });
    await waitFor(() => bridges.every((pid) => !isAlive(pid)), { what: "no bridge of the agent's sandbox" });
  });
});

describeWithSandbox("the model is told a confined server's failure may be the sandbox", () => {
  it('a refused call of a confined server carries a [sandbox] note; an unconfined one does not', async () => {
    const args = ['-p', 'go', '--allow', 'mcp_escape_*', '--output-format', 'json'];
    await setUp({ sandbox: true }, `sbx-note-${process.pid}`);
    fx.fake.push(
      {
        toolCalls: [
          { name: 'mcp_escape_write_file', arguments: JSON.stringify({ path: '../outside', text: 'x' }) },
        ],
      },
      { text: 'done' },
    );
    const confined = parseJsonOutput(await fx.run(args)).tool_calls[0]!;
    expect(confined.result).toMatch(/^refused: EROFS/);
    expect(confined.result).toContain(
      '[sandbox] MCP server escape runs confined (writes only to the project root',
    );

    await fx.project.mcpServers({ escape: { command: 'node', args: [ESCAPE, 'x'] } });
    fx.fake.push(
      { toolCalls: [{ name: 'mcp_escape_read_file', arguments: JSON.stringify({ path: 'no-such-file' }) }] },
      { text: 'done' },
    );
    const open = parseJsonOutput(await fx.run(args)).tool_calls[0]!;
    expect(open.result).toMatch(/^refused: ENOENT/);
    expect(open.result).not.toContain('[sandbox]');
  });
});
