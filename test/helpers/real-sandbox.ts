/**
 * A CommandSandbox over the real library and bubblewrap in a fresh temp folder (a `project` root and
 * a `home`), for tests that run confined commands; fails at once on a machine that cannot confine.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCommandSandbox } from '../../src/sandbox/index.js';
import { probeSandbox } from '../../src/sandbox/probe.js';
import { type CommandSandbox, DEFAULT_SANDBOX_POLICY } from '../../src/sandbox/types.js';

export interface RealSandbox {
  base: string;
  root: string;
  home: string;
  sandbox: CommandSandbox;
  /** Disposes the sandbox and removes the folder. */
  dispose(): Promise<void>;
}

export function requireSandbox(): void {
  const probe = probeSandbox(process.env);
  if (probe.problem)
    throw new Error(`the sandbox cannot run on this machine: ${probe.problem} (${probe.fix})`);
}

export function realSandbox(prefix: string): RealSandbox {
  const base = mkdtempSync(path.join(os.tmpdir(), prefix));
  const root = path.join(base, 'project');
  const home = path.join(base, 'home');
  mkdirSync(root, { recursive: true });
  mkdirSync(home, { recursive: true });
  const sandbox = createCommandSandbox({
    policy: DEFAULT_SANDBOX_POLICY,
    root,
    home,
    userStateDir: path.join(home, '.geekagent'),
    stateDirs: [path.join(root, '.geekagent')],
    env: process.env,
  });
  return {
    base,
    root,
    home,
    sandbox,
    async dispose() {
      await sandbox.dispose();
      rmSync(base, { recursive: true, force: true });
    },
  };
}
