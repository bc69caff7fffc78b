/**
 * `geekagent sandbox check`: what the command sandbox needs here (platform, bubblewrap, socat,
 * ripgrep, user namespaces), what is missing and how to install it, then one real confined
 * command in a scratch folder. 0 when commands can be confined, 1 when not.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { userStateDir } from '../config/paths.js';
import { createCommandSandbox, DEFAULT_SANDBOX_POLICY, probeSandbox } from '../sandbox/index.js';
import { visibleLine } from '../util/terminal-text.js';
import type { CliIO } from './types.js';

export async function checkSandbox(io: CliIO): Promise<number> {
  const out = (line: string) => io.stdout.write(`${line}\n`);
  const probe = probeSandbox(io.env);
  out(`platform: ${probe.platform}${probe.supported ? '' : ' (not supported: Linux or macOS only)'}`);
  for (const program of probe.programs) {
    out(
      `${program.name}: ${program.path ? `found at ${visibleLine(program.path)}` : `MISSING (package ${program.pkg})`}`,
    );
  }
  if (probe.platform === 'linux') out(`user namespaces: ${probe.userNamespaces ?? 'usable'}`);
  if (probe.problem) {
    out(`sandbox: unavailable — ${probe.problem}`);
    out(`fix: ${probe.fix}`);
    return 1;
  }
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'geekagent-sandbox-check-'));
  const commandSandbox = createCommandSandbox({
    policy: DEFAULT_SANDBOX_POLICY,
    root: scratch,
    home: os.homedir(),
    userStateDir: userStateDir(io.env),
    stateDirs: [],
    env: io.env,
  });
  try {
    const status = await commandSandbox.ready();
    if (status.kind !== 'confined') {
      out(`sandbox: unavailable — ${status.kind === 'unavailable' ? status.reason : status.kind}`);
      if (status.kind === 'unavailable') out(`fix: ${status.fix}`);
      return 1;
    }
    const outside = path.join(path.dirname(scratch), `${path.basename(scratch)}-outside`);
    const line = await commandSandbox.wrap(`touch inside && ! touch '${outside}' 2>/dev/null`, {
      id: 'sandbox-check',
      cwd: scratch,
    });
    const code = await run(line, scratch, io.env);
    commandSandbox.release('sandbox-check');
    if (code !== 0) {
      out(`sandbox: a confined test command failed (exit ${code}): writes are not confined as expected`);
      return 1;
    }
    out('sandbox: works (a confined command wrote in its folder and was refused outside it)');
    return 0;
  } finally {
    await commandSandbox.dispose();
    await rm(scratch, { recursive: true, force: true });
  }
}

function run(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', line], { cwd, env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
}
