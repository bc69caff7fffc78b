/**
 * Zero orphans: the agent is killed (SIGTERM, and SIGKILL which runs no code at all) while a
 * server that spawned a grandchild is running mid-turn; afterwards no process of it is left.
 * SIGKILL is covered by the reaper (see src/process/group-tracker.ts).
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { descendants, isAlive, waitFor } from '../helpers/wait.js';
import { CLI, cliFixture, DEMO_SERVER, FIXTURE_SERVERS, testEnv } from './harness.js';

const fx = cliFixture();

async function agentMidTurn() {
  const pidFile = path.join(fx.project.dir, 'grandchild.pid');
  await fx.project.mcpServers({
    family: {
      command: 'sh',
      args: ['-c', `exec node ${path.join(FIXTURE_SERVERS, 'grandchild.mjs')}`],
      env: { PID_FILE: pidFile },
    },
    demo: { command: 'node', args: [DEMO_SERVER] },
  });
  fx.fake.push({ kind: 'hang' });
  const agent = spawn(process.execPath, [CLI, '--trust', '-p', 'hang please'], {
    cwd: fx.project.dir,
    env: testEnv({ project: fx.project, modelUrl: fx.fake.url }),
    stdio: 'ignore',
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    agent.once('exit', (code, signal) => resolve({ code, signal })),
  );
  // The first model request waits until every server has connected: then they are all running.
  await fx.fake.waitForRequests(1);
  const grandchild = Number(await readFile(pidFile, 'utf8'));
  const family = descendants(agent.pid!);
  expect(family).toContain(grandchild);
  expect(family.length).toBeGreaterThanOrEqual(3); // two servers, a grandchild (and the reaper)
  return { agent, exited, family };
}

describe('no process outlives the agent', () => {
  it('SIGTERM: shuts down, exits 143, takes servers and grandchildren with it', async () => {
    const { agent, exited, family } = await agentMidTurn();
    agent.kill('SIGTERM');
    expect((await exited).code).toBe(143);
    await waitFor(() => family.every((pid) => !isAlive(pid)), { what: 'every server process to end' });
  });

  it('SIGKILL: the reaper takes every process group down', async () => {
    const { agent, exited, family } = await agentMidTurn();
    agent.kill('SIGKILL');
    expect((await exited).signal).toBe('SIGKILL');
    await waitFor(() => family.every((pid) => !isAlive(pid)), { what: 'every server process to end' });
  });
});
