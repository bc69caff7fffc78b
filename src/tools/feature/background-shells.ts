/**
 * Background shells as an extension: `shell_output` and `shell_kill` (allowed: they only read or
 * stop what an allowed run_shell started), `/shells` (list; `/shells kill ID`), the panel's rows,
 * and stopping every shell — process group and all — when the app shuts down (the session ends,
 * Ctrl+C to leave, a signal). run_shell itself starts them (tools/builtin/shell.ts).
 */

import { type Extension, PANEL_ORDER } from '../../extensions/types.js';
import type { BackgroundShells, ShellInfo } from '../background/shells.js';
import { describeState, shellKillTool, shellOutputTool, shortCommand } from '../background/tools.js';

/** Shells shown in the panel; the rest are counted in a `+N more` row. */
export const PANEL_SHELL_ROWS = 4;

const MARK: Record<ShellInfo['state']['kind'], string> = { running: '[>]', exited: '[x]', killed: '[-]' };

/** `/shells`: one line per shell, newest last. */
export function describeShells(shells: readonly ShellInfo[], now = Date.now()): string {
  if (shells.length === 0) return '(no background shells in this session)';
  return shells
    .map((info) => {
      const age = Math.max(0, Math.round((now - info.startedAt) / 1000));
      return `${info.id}  ${describeState(info)}  ${age}s  ${shortCommand(info.command, 70)}`;
    })
    .join('\n');
}

/** The panel's rows: a header with counts, then the running shells first, cut to fit. */
export function shellPanelRows(
  shells: readonly ShellInfo[],
  width: number,
): Array<{ label: string; value: string }> {
  if (shells.length === 0) return [];
  const running = shells.filter((info) => info.state.kind === 'running');
  const rows = [
    { label: 'Shells', value: `${running.length} running, ${shells.length - running.length} ended` },
  ];
  const ordered = [...running, ...shells.filter((info) => info.state.kind !== 'running').reverse()];
  const shown = ordered.length > PANEL_SHELL_ROWS ? ordered.slice(0, PANEL_SHELL_ROWS - 1) : ordered;
  for (const info of shown) {
    const head = `${MARK[info.state.kind]} ${info.id} `;
    rows.push({ label: '', value: head + shortCommand(info.command, Math.max(4, width - head.length)) });
  }
  if (shown.length < ordered.length)
    rows.push({ label: '', value: `+${ordered.length - shown.length} more` });
  return rows;
}

export function backgroundShellsExtension(shells: BackgroundShells, panelWidth = 24): Extension {
  let unsubscribe: (() => void) | undefined;
  return {
    name: 'background-shells',
    setup(host) {
      host.tools.add(shellOutputTool(shells), 'allow');
      host.tools.add(shellKillTool(shells), 'allow');
      unsubscribe = shells.onChange(() => host.changed());
      host.commands.add({
        name: 'shells',
        usage: '/shells [kill <id>]',
        description: 'list the background shells of this session, or stop one',
        run: async (args, ctx) => {
          if (args[0] === 'kill') {
            const id = args[1];
            if (!id) {
              ctx.print('usage: /shells kill <id>', 'error');
              return;
            }
            try {
              await shells.stop(id);
              ctx.print(`stopped ${id}`);
            } catch (error) {
              ctx.print((error as Error).message.replace(/^shell_kill: /, ''), 'error');
            }
            return;
          }
          ctx.print(describeShells(shells.list()));
        },
      });
      for (let i = 0; i <= PANEL_SHELL_ROWS + 1; i++) {
        host.panel(() => {
          const row = shellPanelRows(shells.list(), panelWidth)[i];
          return row ? { ...row, order: PANEL_ORDER.shells + i / 100 } : undefined;
        });
      }
    },
    async dispose() {
      unsubscribe?.();
      await shells.stopAll();
    },
  };
}
