/**
 * A CommandSandbox over the real library and bubblewrap in a fresh temp folder (a `project` root and
 * a `home`), for tests that run confined commands (inside describeWithSandbox: test/helpers/sandbox-gate.ts).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCommandSandbox } from '../../src/sandbox/index.js';
import { type CommandSandbox, DEFAULT_SANDBOX_POLICY } from '../../src/sandbox/types.js';

export interface RealSandbox {
  base: string;
  root: string;
  home: string;
  sandbox: CommandSandbox;
  /** Disposes the sandbox and removes the folder. */
  dispose(): Promise<void>;
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
