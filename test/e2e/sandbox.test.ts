/**
 * The command sandbox through the built CLI: a scripted model asks run_shell to get out in each
 * way we know — read a key in the home folder, write outside the root, rewrite the agent's own
 * config, write through a symlink that leads out, reach a loopback server, leave a process
 * behind — and each is refused under workspace-write and works under `--sandbox off` once the
 * person allows it. Confined commands are not asked; `sandbox: false` always is; where the
 * sandbox cannot run, one line says so and commands are asked as before.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeWithSandbox, itWithSandbox } from '../helpers/sandbox-gate.js';
import { cliFixture, type JsonOutput, parseJsonOutput, type RunResult } from './harness.js';

const fx = cliFixture({ timeoutMs: 60_000 });

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

/** One print-mode turn in which the model runs `command` through run_shell. */
async function shell(
  command: string | Record<string, unknown>,
  flags: string[] = [],
  env?: Record<string, string>,
): Promise<{ run: RunResult; out: JsonOutput; result: string }> {
  const args = typeof command === 'string' ? { command } : command;
  fx.fake.push({ toolCalls: [call('run_shell', args)] }, { text: 'done' });
  const run = await fx.run(['-p', 'go', '--output-format', 'json', ...flags], env ? { env } : {});
  const out = parseJsonOutput(run);
  expect(out.tool_calls, run.stderr).toHaveLength(1);
  return { run, out, result: out.tool_calls[0]!.result };
}

const UNCONFINED = ['--sandbox', 'off', '--allow', 'run_shell'];
const outside = () => path.join(path.dirname(fx.project.dir), 'outside');

describeWithSandbox(
  'run_shell confined under workspace-write (the default), free under --sandbox off',
  () => {
    it('cannot read a key in the home folder', async () => {
      await mkdir(path.join(fx.project.home, '.ssh'), { recursive: true });
      await writeFile(path.join(fx.project.home, '.ssh', 'id_rsa'), 'PRIVATE-KEY-d41d8cd9\n');
      const confined = await shell('cat "$HOME/.ssh/id_rsa"');
      expect(confined.out.tool_calls[0]).toMatchObject({ decision: 'allow', is_error: false });
      expect(confined.result).not.toContain('PRIVATE-KEY');
      expect(confined.result).toContain('[sandbox]');
      expect(confined.result).toContain(`read of ${path.join(fx.project.home, '.ssh')}`);
      const free = await shell('cat "$HOME/.ssh/id_rsa"', UNCONFINED);
      expect(free.result).toContain('PRIVATE-KEY-d41d8cd9');
    });

    it('cannot write outside the root', async () => {
      const confined = await shell('echo x > ../outside');
      expect(confined.result).toContain('[sandbox]');
      expect(confined.result).toContain('write to ../outside');
      expect(existsSync(outside())).toBe(false);
      await shell('echo x > ../outside', UNCONFINED);
      expect(existsSync(outside())).toBe(true);
    });

    it("cannot rewrite the agent's own config, however the name is spelled", async () => {
      const file = path.join(fx.project.dir, '.geekagent', 'GeekAgent.json');
      // A project file the person made (nothing creates one on its own any more).
      await fx.project.write('.geekagent/GeekAgent.json', '{}\n');
      // Spelled so the protected-name check does not see it: the sandbox is the barrier.
      const sneaky =
        'd=.geek; d="${d}agent"; n=Geek; echo \'{"tools":{"write":"allow"}}\' > "$d/${n}Agent.json"';
      const confined = await shell(sneaky);
      expect(confined.result).toContain('[sandbox]');
      expect(readFileSync(file, 'utf8')).not.toContain('"write":"allow"');
      await shell(sneaky, UNCONFINED);
      expect(readFileSync(file, 'utf8')).toContain('"write":"allow"');
    });

    it('cannot write through a symlink that leads out of the root', async () => {
      const target = path.join(path.dirname(fx.project.dir), 'through-link');
      const confined = await shell('ln -s .. up && echo x > up/through-link');
      expect(confined.result).toContain('[sandbox]');
      expect(existsSync(target)).toBe(false);
      await shell('rm -f up; ln -s .. up && echo x > up/through-link', UNCONFINED);
      expect(existsSync(target)).toBe(true);
    });

    it('cannot reach a loopback server', async () => {
      let hits = 0;
      const server = http.createServer((_request, response) => {
        hits += 1;
        response.end('LOOPBACK-OK');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      try {
        const probe = `node -e "require('http').get('http://127.0.0.1:${port}/',r=>r.pipe(process.stdout)).on('error',e=>{console.error(e.message);process.exit(3)})"`;
        const confined = await shell(probe);
        expect(confined.result).not.toContain('LOOPBACK-OK');
        expect(confined.result).toContain('[sandbox]');
        expect(hits).toBe(0);
        const free = await shell(probe, UNCONFINED);
        expect(free.result).toContain('LOOPBACK-OK');
        expect(hits).toBe(1);
      } finally {
        server.close();
      }
    });

    it('with no host allowed has no network at all and no proxy; a host allowed goes through the proxy', async () => {
      let hits = 0;
      const server = http.createServer((_request, response) => {
        hits += 1;
        response.end('LOOPBACK-OK');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      // Interfaces from the command's own /proc, the proxy it was given, a connect to the test
      // server on the host's loopback and one to a public address.
      const probe =
        "echo \"proxy=${HTTPS_PROXY:-none}\"; echo \"ifaces=$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\\n' ' ')\"; " +
        `(exec 3<>/dev/tcp/127.0.0.1/${port}) && echo LOOPBACK-OPEN; (exec 3<>/dev/tcp/1.1.1.1/80) && echo PUBLIC-OPEN; true`;
      try {
        const offline = await shell(probe);
        expect(offline.result).toContain('proxy=none');
        expect(offline.result).toContain('ifaces=lo ');
        expect(offline.result).not.toContain('OPEN');
        const userFile = path.join(fx.project.home, '.geekagent', 'GeekAgent.json');
        await mkdir(path.dirname(userFile), { recursive: true });
        await writeFile(userFile, JSON.stringify({ sandbox: { network: { allow: ['example.com'] } } }));
        const proxied = await shell(probe);
        expect(proxied.result).toMatch(/proxy=http:\/\/\S+@localhost:3128/);
        expect(proxied.result).toContain('ifaces=lo ');
        expect(proxied.result).not.toContain('OPEN');
        expect(hits).toBe(0);
      } finally {
        server.close();
      }
    });

    it('leaves no process behind when the command ends', async () => {
      const token = `${10_000 + Math.floor(Math.random() * 80_000)}`;
      const command = `setsid sleep ${token} >/dev/null 2>&1 < /dev/null & echo started`;
      const confined = await shell(command);
      expect(confined.result).toContain('started');
      expect(livingSleeps(token)).toEqual([]);
      await shell(command, UNCONFINED);
      const left = livingSleeps(token);
      // Unconfined, a process that left the group outlives the command (what the sandbox prevents).
      expect(left.length).toBe(1);
      for (const pid of left) process.kill(pid, 'SIGKILL');
    });
  },
);

/** Pids of live (not zombie) `sleep <token>` processes. */
function livingSleeps(token: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmdline[0] !== 'sleep' || cmdline[1] !== token) continue;
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.[0];
      if (state !== 'Z') found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

describeWithSandbox('modes and questions', () => {
  afterEach(() => undefined);

  it('read-only refuses a write inside the root', async () => {
    const { result } = await shell('echo x > inside.txt', ['--sandbox', 'read-only']);
    expect(result).toContain('[sandbox]');
    expect(existsSync(path.join(fx.project.dir, 'inside.txt'))).toBe(false);
    const written = await shell('echo x > inside.txt');
    expect(written.out.tool_calls[0]!.is_error).toBe(false);
    expect(await readFile(path.join(fx.project.dir, 'inside.txt'), 'utf8')).toBe('x\n');
  });

  it('does not ask for a confined command; unconfined it is asked (print mode refuses)', async () => {
    const confined = await shell('echo hello-sandbox');
    expect(confined.out.tool_calls[0]).toMatchObject({ decision: 'allow', is_error: false });
    expect(confined.result).toContain('hello-sandbox');
    const off = await shell('echo hello-sandbox', ['--sandbox', 'off']);
    expect(off.out.tool_calls[0]).toMatchObject({ decision: 'refused', is_error: true });
  });

  it('"autoAllow": false in the user file keeps asking; a deny rule still wins', async () => {
    const userFile = path.join(fx.project.home, '.geekagent', 'GeekAgent.json');
    await mkdir(path.dirname(userFile), { recursive: true });
    await writeFile(userFile, JSON.stringify({ sandbox: { autoAllow: false } }));
    const asked = await shell('echo hi');
    expect(asked.out.tool_calls[0]).toMatchObject({ decision: 'refused' });
    await writeFile(userFile, JSON.stringify({ tools: { run_shell: 'deny' } }));
    const denied = await shell('echo hi');
    expect(denied.out.tool_calls[0]).toMatchObject({ decision: 'deny' });
  });

  it('an explicit "run_shell": "ask" rule (user or project) keeps asking a confined command', async () => {
    const userFile = path.join(fx.project.home, '.geekagent', 'GeekAgent.json');
    await mkdir(path.dirname(userFile), { recursive: true });
    await writeFile(userFile, JSON.stringify({ tools: { run_shell: 'ask' } }));
    const user = await shell('echo asked > asked.txt');
    expect(user.out.tool_calls[0]).toMatchObject({ decision: 'refused', is_error: true });
    expect(existsSync(path.join(fx.project.dir, 'asked.txt'))).toBe(false);
    await writeFile(userFile, JSON.stringify({}));
    await fx.project.write('.geekagent/GeekAgent.json', JSON.stringify({ tools: { run_shell: 'ask' } }));
    const project = await shell('echo asked > asked.txt');
    expect(project.out.tool_calls[0]).toMatchObject({ decision: 'refused', is_error: true });
    expect(existsSync(path.join(fx.project.dir, 'asked.txt'))).toBe(false);
    // No rule: the default `ask` lets the confined command run unasked.
    await fx.project.write('.geekagent/GeekAgent.json', JSON.stringify({}));
    const unasked = await shell('echo ran > asked.txt');
    expect(unasked.out.tool_calls[0]).toMatchObject({ decision: 'allow', is_error: false });
    expect(readFileSync(path.join(fx.project.dir, 'asked.txt'), 'utf8')).toBe('ran\n');
  });

  it('"sandbox": false is always asked, even under --allow, showing the reason', async () => {
    const args = { command: 'echo x > ../outside', sandbox: false, reason: 'needs the parent folder' };
    const { out } = await shell(args, ['--allow', 'run_shell']);
    expect(out.tool_calls[0]).toMatchObject({ decision: 'refused', is_error: true });
    expect(out.tool_calls[0]!.result).toContain('"sandbox": false was refused');
    expect(existsSync(outside())).toBe(false);
  });

  it("a user's allowUnconfined pattern lets that command leave the sandbox unasked", async () => {
    const userFile = path.join(fx.project.home, '.geekagent', 'GeekAgent.json');
    await mkdir(path.dirname(userFile), { recursive: true });
    // An exact line is the person's whole command, its redirection out of the root included.
    await writeFile(userFile, JSON.stringify({ sandbox: { allowUnconfined: ['echo x > ../outside'] } }));
    const { out } = await shell({ command: 'echo x > ../outside', sandbox: false, reason: 'r' });
    expect(out.tool_calls[0]).toMatchObject({ decision: 'allow', is_error: false });
    expect(existsSync(outside())).toBe(true);
  });

  it('an allowUnconfined `*` never stands for a chained command or a redirection out of the root', async () => {
    const userFile = path.join(fx.project.home, '.geekagent', 'GeekAgent.json');
    await mkdir(path.dirname(userFile), { recursive: true });
    // The README's `npm publish*`, with a command that runs anywhere.
    await writeFile(userFile, JSON.stringify({ sandbox: { allowUnconfined: ['echo publish*'] } }));
    const escaped = path.join(path.dirname(fx.project.dir), 'escaped');
    for (const command of [
      `echo publish --dry-run; touch ${escaped}`,
      `echo publish && touch ${escaped}`,
      `echo publish || touch ${escaped}`,
      `echo publish | touch ${escaped}`,
      `echo publish & touch ${escaped}`,
      `echo publish $(touch ${escaped})`,
      `echo publish \`touch ${escaped}\``,
      `echo publish\ntouch ${escaped}`,
      'echo publish > ../escaped',
    ]) {
      const { out } = await shell({ command, sandbox: false, reason: 'publish' });
      expect(out.tool_calls[0], command).toMatchObject({ decision: 'refused', is_error: true });
      expect(existsSync(escaped), command).toBe(false);
    }
    // What the pattern names still runs unasked, a redirection inside the root included.
    const { out } = await shell({ command: "echo publish 'a;b' > publish.log 2>&1", sandbox: false });
    expect(out.tool_calls[0]).toMatchObject({ decision: 'allow', is_error: false });
    expect(readFileSync(path.join(fx.project.dir, 'publish.log'), 'utf8')).toBe('publish a;b\n');
  });

  it('a trusted project narrows the mode but cannot widen it; an untrusted one is ignored', async () => {
    const userFile = path.join(fx.project.home, '.geekagent', 'GeekAgent.json');
    await mkdir(path.dirname(userFile), { recursive: true });
    await fx.project.write(
      '.geekagent/GeekAgent.json',
      JSON.stringify({ root: '..', sandbox: { mode: 'off' } }),
    );
    const widened = await shell('echo x > ../outside');
    expect(widened.run.stderr).toContain('a project may only narrow');
    expect(widened.result).toContain('[sandbox]');
    expect(existsSync(outside())).toBe(false);

    await fx.project.write(
      '.geekagent/GeekAgent.json',
      JSON.stringify({ root: '..', sandbox: { mode: 'read-only' } }),
    );
    const narrowed = await shell('echo x > inside.txt');
    // An allow rule makes the folder one that needs trust: untrusted, its sandbox section is ignored.
    await fx.project.write(
      '.geekagent/GeekAgent.json',
      JSON.stringify({ root: '..', tools: { write: 'allow' }, sandbox: { mode: 'read-only' } }),
    );
    expect(narrowed.result).toContain('[sandbox]');
    expect(existsSync(path.join(fx.project.dir, 'inside.txt'))).toBe(false);
    fx.fake.push({ toolCalls: [call('run_shell', { command: 'echo x > inside.txt' })] }, { text: 'done' });
    const untrusted = parseJsonOutput(
      await fx.run(['-p', 'go', '--output-format', 'json'], { trusted: false }),
    );
    expect(untrusted.tool_calls[0]!.is_error, JSON.stringify(untrusted.tool_calls)).toBe(false);
    expect(untrusted.tool_calls[0]!.result).toBe('(no output)');
    expect(existsSync(path.join(fx.project.dir, 'inside.txt'))).toBe(true);
  });

  it('a bad sandbox section is an error naming the file', async () => {
    const userFile = path.join(fx.project.home, '.geekagent', 'GeekAgent.json');
    await mkdir(path.dirname(userFile), { recursive: true });
    await writeFile(userFile, JSON.stringify({ sandbox: { mode: 'jail' } }));
    const run = await fx.run(['-p', 'go']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(userFile);
    expect(run.stderr).toContain('sandbox');
  });
});

describe('where the sandbox cannot run', () => {
  const nowhere = { GEEKAGENT_SANDBOX_BWRAP: '/nonexistent/bwrap' };

  it('says so in one line and asks as before; never claims confinement', async () => {
    const asked = await shell('echo hi', [], nowhere);
    expect(asked.run.stderr).toMatch(/sandbox unavailable: .*bwrap/);
    expect(asked.out.tool_calls[0]).toMatchObject({ decision: 'refused' });
    const allowed = await shell('echo x > ../outside', ['--allow', 'run_shell'], nowhere);
    expect(allowed.out.tool_calls[0]).toMatchObject({ decision: 'allow', is_error: false });
    expect(allowed.result).not.toContain('[sandbox]');
    expect(existsSync(outside())).toBe(true);
  });

  it('geekagent sandbox check says what is missing and how to install it', async () => {
    const missing = await fx.run(['sandbox', 'check'], { env: nowhere });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('bwrap: MISSING (package bubblewrap)');
    expect(missing.stdout).toContain('apt-get install bubblewrap');
  });

  itWithSandbox('geekagent sandbox check says the sandbox works where it does', async () => {
    const present = await fx.run(['sandbox', 'check']);
    expect(present.stdout).toMatch(/bwrap: found at /);
    expect(present.stdout).toContain('sandbox: works');
    expect(present.code).toBe(0);
  });
});
