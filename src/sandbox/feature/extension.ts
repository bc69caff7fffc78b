/**
 * The command sandbox as an extension: a start-up notice when a wanted sandbox cannot run (and
 * when a project's settings tried to widen it), `/sandbox` (mode, what is confined, the allow
 * lists), the panel row, and the sandbox's release when the run ends.
 */

import { type Extension, PANEL_ORDER } from '../../extensions/types.js';
import { type CommandSandbox, HOME_DENY_READ, type SandboxPolicy, type SandboxStatus } from '../index.js';

export interface SandboxExtensionOptions {
  sandbox: CommandSandbox;
  policy: SandboxPolicy;
  /** The project's sandbox settings that were ignored (they may only narrow). */
  notices?: readonly string[];
}

export function sandboxExtension(options: SandboxExtensionOptions): Extension {
  const { sandbox, policy } = options;
  return {
    name: 'sandbox',
    setup(host) {
      for (const notice of options.notices ?? []) host.notice(notice);
      const status = sandbox.status;
      if (status.kind === 'unavailable') host.notice(unavailableLine(status));
      host.panel(() => ({
        label: 'sandbox',
        value: shortStatus(sandbox.status),
        order: PANEL_ORDER.sandbox,
      }));
      host.commands.add({
        name: 'sandbox',
        usage: '/sandbox',
        description: 'show the command sandbox: mode, what is confined, allowed hosts and paths',
        run: async (_args, ctx) => {
          const final = await sandbox.ready();
          ctx.print(describeSandbox(final, policy), final.kind === 'unavailable' ? 'error' : 'system');
          host.changed();
        },
      });
    },
    dispose: () => sandbox.dispose(),
  };
}

export function unavailableLine(status: Extract<SandboxStatus, { kind: 'unavailable' }>): string {
  return `sandbox unavailable: ${status.reason} — commands are not confined and are asked before they run (${status.fix})`;
}

function shortStatus(status: SandboxStatus): string {
  if (status.kind === 'confined') return status.mode;
  if (status.kind === 'off') return 'off';
  return 'unavailable';
}

export function describeSandbox(status: SandboxStatus, policy: SandboxPolicy): string {
  if (status.kind === 'off')
    return 'sandbox: off — run_shell commands run unconfined and are asked as their rules say (set "sandbox": {"mode": "workspace-write"} in ~/.geekagent/GeekAgent.json, or --sandbox workspace-write)';
  if (status.kind === 'unavailable') return unavailableLine(status);
  const lines = [
    `sandbox: ${status.mode} — run_shell commands run confined${policy.autoAllow ? ' and unasked (autoAllow)' : ', each asked (autoAllow: false)'}`,
    status.mode === 'workspace-write'
      ? '  writes: only the project root and a private temp folder; .geekagent, .env, .git/hooks, .git/config read-only'
      : '  writes: none',
    `  hidden: ${[...HOME_DENY_READ.map((entry) => `~/${entry}`), '~/.geekagent (GEEKAGENT_HOME)', ...policy.denyRead].join(', ')}`,
    `  network: ${policy.allowHosts.length > 0 ? policy.allowHosts.join(', ') : 'none'} (loopback only if listed)`,
  ];
  if (policy.allowWrite.length > 0) lines.push(`  also writable: ${policy.allowWrite.join(', ')}`);
  lines.push('  "sandbox": false on a command runs it unconfined after asking you');
  return lines.join('\n');
}
