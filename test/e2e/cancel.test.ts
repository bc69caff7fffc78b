/**
 * Cancellation always wins, end to end: whatever a tool is doing — a built-in `read` stuck opening
 * a FIFO nobody writes (a blocking call in libuv's thread pool), a server that never answers and
 * ignores every signal — Esc / Ctrl+C end the turn, and /exit, Ctrl+C, SIGTERM and SIGINT end the
 * process, with no server left behind. The tool never finishes, so the turn or process ending at
 * all shows it did not wait for it; these waits are stuck-guards, not the 2 s goal (a busy machine
 * must not fail a correctness test).
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive, settles, waitFor } from '../helpers/wait.js';
import { CLI, cliArgs, FIXTURE_SERVERS, testEnv } from './harness.js';
import { KEYS, type PtySession, spawnTui, tuiFixture } from './pty.js';

/** Far above the 2 s these take on a quiet machine, under the 60 s test timeout: a hang fails, load does not. */
const STUCK_MS = 30_000;

const fx = tuiFixture();

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

/** A FIFO in the project that nobody ever writes: opening it for reading blocks for good. */
function fifo(): string {
  const file = path.join(fx.project.dir, 'pipe');
  execFileSync('mkfifo', [file]);
  return file;
}

/** Some thread of `pid` is blocked opening a FIFO (Linux: the kernel's wait_for_partner). */
function blockedOnFifo(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some((task) => {
      try {
        return readFileSync(`/proc/${pid}/task/${task}/wchan`, 'utf8').includes('wait_for_partner');
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/**
 * The model reads the FIFO, and if that read is refused (file tools that refuse FIFOs), its next
 * request hangs: either way the turn is stuck. Resolves once it is.
 */
async function stuckOnFifo(pid: () => number): Promise<void> {
  fifo();
  await waitFor(() => blockedOnFifo(pid()) || fx.fake.requests.length >= 2, {
    what: 'the read of the FIFO to block (or the next model request)',
    timeoutMs: 20_000,
  });
}

function scriptFifoRead(): void {
  fx.fake.push({ toolCalls: [call('read', { path: 'pipe' })] }, { kind: 'hang' });
}

async function stubbornServer(): Promise<string> {
  const pidFile = path.join(fx.project.dir, 'stubborn.pid');
  await fx.project.mcpServers({
    stubborn: {
      command: process.execPath,
      args: [path.join(FIXTURE_SERVERS, 'stubborn.mjs')],
      env: { PID_FILE: pidFile },
    },
  });
  await fx.project.tools({ 'mcp_stubborn_*': 'allow' });
  return pidFile;
}

describe('in the TUI', () => {
  function start(): PtySession {
    const session = spawnTui({ project: fx.project, modelUrl: fx.fake.url });
    fx.sessions.push(session);
    return session;
  }

  it('Esc ends a turn stuck reading a FIFO, and /exit then ends the process', async () => {
    scriptFifoRead();
    const tui = start();
    await tui.waitFor('Type /help');
    tui.send(`read the pipe${KEYS.enter}`);
    await stuckOnFifo(() => tui.pid);

    tui.send(KEYS.escape);
    await tui.waitFor(/^cancelled\s/m, STUCK_MS);
    expect(tui.screen()).not.toMatch(/Esc cancels/);

    tui.send(`/exit${KEYS.enter}`);
    await tui.exited(STUCK_MS);
  });

  it('Ctrl+C ends a call to a server that never answers, and /exit mid-call exits', async () => {
    const pidFile = await stubbornServer();
    fx.fake.push(
      { toolCalls: [call('mcp_stubborn_hang', {})] },
      { toolCalls: [call('mcp_stubborn_hang', {})] },
    );
    const tui = start();
    await tui.waitFor('MCP stubborn(1)', 20_000);
    tui.send(`hang${KEYS.enter}`);
    await tui.waitFor(/mcp_stubborn_hang \d+\.\ds/);

    tui.send(KEYS.ctrlC);
    await tui.waitFor(/^cancelled\s/m, STUCK_MS);

    tui.send(`hang again${KEYS.enter}`);
    await tui.waitFor(/mcp_stubborn_hang \d+\.\ds/);
    tui.send(`/exit${KEYS.enter}`);
    await tui.exited(STUCK_MS);
    // The server ignored SIGTERM and its closed stdin: it was killed all the same.
    const server = Number(readFileSync(pidFile, 'utf8'));
    await waitFor(() => !isAlive(server), { what: 'the stubborn server to be killed' });
  });
});

describe('signals', () => {
  function printRun(prompt: string) {
    const agent = spawn(process.execPath, [CLI, ...cliArgs(['-p', prompt], true)], {
      cwd: fx.project.dir,
      env: testEnv({ project: fx.project, modelUrl: fx.fake.url }),
      stdio: 'ignore',
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      agent.once('exit', (code, signal) => resolve({ code, signal })),
    );
    return { agent, exited };
  }

  it('SIGTERM ends print mode stuck reading a FIFO, as 143', async () => {
    scriptFifoRead();
    const { agent, exited } = printRun('read the pipe');
    try {
      await stuckOnFifo(() => agent.pid!);
      agent.kill('SIGTERM');
      const end = await settles(exited, 'the agent to exit after SIGTERM', STUCK_MS);
      // Ended by the signal itself when a blocked thread would hang exit(): a shell sees 143 either way.
      expect(end.code === 143 || end.signal === 'SIGTERM').toBe(true);
    } finally {
      agent.kill('SIGKILL');
    }
  });

  it('SIGINT ends print mode mid-call to a server that ignores every signal, and kills it', async () => {
    const pidFile = await stubbornServer();
    fx.fake.push({ toolCalls: [call('mcp_stubborn_hang', {})] }, { kind: 'hang' });
    const { agent, exited } = printRun('hang');
    try {
      await waitFor(() => fx.fake.requests.length >= 1, { what: 'the first model request' });
      const server = Number(readFileSync(pidFile, 'utf8'));
      agent.kill('SIGINT');
      expect((await settles(exited, 'the agent to exit after SIGINT', STUCK_MS)).code).toBe(130);
      await waitFor(() => !isAlive(server), { what: 'the stubborn server to be killed' });
    } finally {
      agent.kill('SIGKILL');
    }
  });
});
