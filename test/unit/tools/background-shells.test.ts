/**
 * The background shells' lists as a person sees them: the panel rows (running first, cut to the
 * panel's width, `+N more`) and `/shells` (state and age), with commands made safe to print.
 */
import { describe, expect, it } from 'vitest';
import type { ShellInfo } from '../../../src/tools/background/shells.js';
import {
  describeShells,
  PANEL_SHELL_ROWS,
  shellPanelRows,
} from '../../../src/tools/feature/background-shells.js';

const shell = (n: number, command: string, state: ShellInfo['state'], lingering = false): ShellInfo => ({
  id: `shell-${n}`,
  command,
  pid: 1000 + n,
  state,
  startedAt: 1_000_000,
  log: undefined,
  callId: undefined,
  lingering,
});

describe('background shells as listed', () => {
  it('the panel: a header with counts, running shells first, commands escaped and cut to the width', () => {
    const rows = shellPanelRows(
      [
        shell(1, 'make', { kind: 'exited', code: 2, signal: null }),
        shell(2, 'npm run dev\u001b]0;title\u0007  --port   3000', { kind: 'running' }),
      ],
      24,
    );
    expect(rows[0]).toEqual({ label: 'Shells', value: '1 running, 1 ended' });
    expect(rows[1]!.value).toBe('[>] shell-2 npm run dev…');
    expect(rows[1]!.value.length).toBeLessThanOrEqual(24);
    expect(rows[2]!.value).toBe('[x] shell-1 make');
    const wide = shellPanelRows(
      [shell(2, 'npm run dev\u001b]0;title\u0007  --port   3000', { kind: 'running' })],
      60,
    );
    expect(wide[1]!.value).toBe('[>] shell-2 npm run dev^[]0;title^G --port 3000');
  });

  it('the panel counts what does not fit', () => {
    const many = Array.from({ length: PANEL_SHELL_ROWS + 2 }, (_, i) =>
      shell(i + 1, `job ${i + 1}`, { kind: 'running' }),
    );
    const rows = shellPanelRows(many, 24);
    expect(rows).toHaveLength(PANEL_SHELL_ROWS + 1);
    expect(rows.at(-1)!.value).toBe(`+${many.length - (PANEL_SHELL_ROWS - 1)} more`);
  });

  it('/shells: id, state, age and the command with control characters made visible', () => {
    const text = describeShells(
      [
        shell(1, 'echo \u001b[31mred', { kind: 'running' }),
        shell(2, 'sleep 1 & true', { kind: 'exited', code: 0, signal: null }, true),
        shell(3, 'tail -f log', { kind: 'killed' }),
      ],
      1_012_400,
    );
    expect(text).toBe(
      [
        'shell-1  still running  12s  echo ^[[31mred',
        'shell-2  exited with code 0; processes it started still run (shell_kill stops them)  12s  sleep 1 & true',
        'shell-3  stopped  12s  tail -f log',
      ].join('\n'),
    );
    expect(describeShells([])).toBe('(no background shells in this session)');
  });
});
