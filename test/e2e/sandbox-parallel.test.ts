/**
 * Confined commands that start together (the model's parallel run_shell calls), with the real
 * library and bubblewrap: a command wrapped while another one's bubblewrap is making its mount
 * points still gets a line that starts (no "Can't create file at …/.claude/agents: Read-only file
 * system"), and once both ended nothing of either is left in the project.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CommandSandbox } from '../../src/sandbox/types.js';
import { type RealSandbox, realSandbox } from '../helpers/real-sandbox.js';
import { describeWithSandbox } from '../helpers/sandbox-gate.js';

let fixture: RealSandbox;
let root: string;
let sandbox: CommandSandbox;
let count = 0;

beforeEach(() => {
  fixture = realSandbox('geekagent-parallel-');
  ({ root, sandbox } = fixture);
});

afterEach(() => fixture.dispose());

/** Wraps `command` once `startAfterMs` passed, runs it, releases it; its exit code and stderr. */
async function confined(command: string, startAfterMs: number) {
  await new Promise((resolve) => setTimeout(resolve, startAfterMs));
  const id = `parallel-${count++}`;
  const line = await sandbox.wrap(command, { id, cwd: root });
  try {
    return await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn('bash', ['-c', line], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });
  } finally {
    sandbox.release(id);
  }
}

describeWithSandbox('confined commands started together', () => {
  it('each starts, whenever the other one is setting up, and leave nothing behind', async () => {
    const failures: string[] = [];
    // The second start moves across the first one's set-up (a few milliseconds of bubblewrap).
    for (let round = 0; round < 30; round++) {
      const results = await Promise.all([confined('true', 0), confined('true', round % 6)]);
      for (const result of results)
        if (result.code !== 0) failures.push(`round ${round}: ${result.stderr.trim()}`);
      const left = readdirSync(root);
      if (left.length > 0) failures.push(`round ${round}: left in the project: ${left.join(', ')}`);
    }
    expect(failures).toEqual([]);
  });
});
