/**
 * The command sandbox in the TUI: the panel row shows the mode, `/sandbox` says what is confined,
 * and where the sandbox cannot run both say so (with the start-up line) instead of a mode.
 */
import { describe, expect, it } from 'vitest';
import { itWithSandbox } from '../helpers/sandbox-gate.js';
import { KEYS, type PtySession, tuiFixture } from './pty.js';

const fx = tuiFixture();

/** The panel column, its wrapped rows joined again. */
function panel(tui: PtySession): string {
  return tui
    .screen()
    .split('\n')
    .map((line) => line.split('│')[1]?.trim() ?? '')
    .join(' ');
}

describe('sandbox in the TUI', () => {
  itWithSandbox('shows the mode in the panel and what is confined with /sandbox', async () => {
    const tui = fx.start({ cols: 140, rows: 50 });
    await tui.waitFor('GeekAgent');
    await tui.waitFor(/sandbox\s+workspace-write/);
    expect(panel(tui)).toContain('sandbox workspace-write');
    tui.send('/sandbox');
    tui.send(KEYS.enter);
    await tui.waitFor('run confined and unasked');
    expect(tui.screen()).toContain('writes: only the project root and a private temp folder');
    expect(tui.screen()).toContain('network: none');
  });

  it('says the sandbox is unavailable, at start, in the panel and in /sandbox', async () => {
    const tui = fx.start({ cols: 140, rows: 50, env: { GEEKAGENT_SANDBOX_BWRAP: '/nonexistent/bwrap' } });
    await tui.waitFor(/sandbox unavailable: missing bwrap/);
    await tui.waitFor(/sandbox\s+unavailable/);
    tui.send('/sandbox');
    tui.send(KEYS.enter);
    await tui.waitFor(/before they run[\s\S]*before they run/);
  });
});
