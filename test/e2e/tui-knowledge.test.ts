/**
 * The knowledge features in the TUI: the Instructions and Memory panel rows, the over-budget
 * instructions warning in the transcript (never a silent cut), and `/rag add`'s progress bar —
 * one line redrawn in place, not a line per file, a file name's escape sequence shown as text.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { createProject, type Project } from './harness.js';
import { KEYS, type PtySession, spawnTui } from './pty.js';

let project: Project;
let fake: FakeModel;
let tui: PtySession | undefined;

beforeEach(async () => {
  project = await createProject();
  fake = await startFakeModel();
});

afterEach(async () => {
  await tui?.dispose();
  await fake.close();
  await project.cleanup();
});

describe('knowledge in the TUI', () => {
  it('shows the instruction files, the memory size and the cut warning', async () => {
    await project.write('AGENTS.md', `Rules.\n${'y'.repeat(3000)}`);
    await project.write('.geekagent/memory.json', JSON.stringify(['First memory', 'Second memory']));
    tui = spawnTui({
      project,
      modelUrl: fake.url,
      env: { GEEKAGENT_INSTRUCTIONS_MAX_BYTES: '2000' },
      cols: 120,
    });
    await tui.waitFor(/over the 2000-byte budget/);
    // The panel column, its wrapped rows joined again.
    const panel = tui
      .screen()
      .split('\n')
      .map((line) => line.split('│')[1]?.trim() ?? '')
      .join(' ');
    expect(panel).toMatch(/Instructions 1 file, [\d.]+ KiB \(cut\)/);
    expect(panel).toContain('Memory 2 entries / 2 chunks');
  });

  it('/rag add shows one progress bar, redrawn in place, with the file names escaped', async () => {
    for (let i = 0; i < 24; i++)
      await project.write(`docs/f${String(i).padStart(2, '0')}.md`, `Note ${i} about topic${i}.`);
    await project.write('docs/zz\u001b[7mrev.md', 'The last file has an escape sequence in its name.');
    tui = spawnTui({ project, modelUrl: fake.url, cols: 120, rows: 60 });
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
