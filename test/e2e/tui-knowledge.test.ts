/**
 * The knowledge features in the TUI: the Instructions and Memory panel rows, the over-budget
 * instructions warning in the transcript (never a silent cut), and `/rag add`'s progress bar —
 * one line redrawn in place, not a line per file, a file name's escape sequence shown as text.
 */
import { describe, expect, it } from 'vitest';
import { KEYS, type PtySession, tuiFixture } from './pty.js';

const fx = tuiFixture();
let tui: PtySession | undefined;

describe('knowledge in the TUI', () => {
  it('shows the instruction files, the memory size and the cut warning', async () => {
    await fx.project.write('AGENTS.md', `Rules.\n${'y'.repeat(3000)}`);
    await fx.project.write('.geekagent/memory.json', JSON.stringify(['First memory', 'Second memory']));
    tui = fx.start({ env: { GEEKAGENT_INSTRUCTIONS_MAX_BYTES: '2000' }, cols: 120 });
    await tui.waitFor(/over the 2000-byte budget/);
    // The panel column, its wrapped rows joined again.
    const panel = tui
      .screen()
      .split('\n')
      .map((line) => line.split('│')[1]?.trim() ?? '')
      .join(' ');
    expect(panel).toMatch(/Instructions 1 file, [\d.]+ KiB \(cut\)/);
    expect(panel).toContain('Memory 2 entries');
  });

  it('/rag add shows one progress bar, redrawn in place, with the file names escaped', async () => {
    for (let i = 0; i < 24; i++)
      await fx.project.write(`docs/f${String(i).padStart(2, '0')}.md`, `Note ${i} about topic${i}.`);
    await fx.project.write('docs/zz\u001b[7mrev.md', 'The last file has an escape sequence in its name.');
    tui = fx.start({ cols: 120, rows: 60 });
    await tui.waitFor('GeekAgent');
    tui.send('/rag add docs');
    tui.send(KEYS.enter);
    await tui.waitFor('knowledge base: 25 indexed');
    const bars = tui
      .screen()
      .split('\n')
      .filter((line) => /\d+\/25 sources/.test(line));
    expect(bars).toHaveLength(1);
    expect(bars[0]).toContain('[####################] 25/25 sources · ');
    expect(bars[0]).toContain('docs/zz^[[7mrev.md');
  });
});
