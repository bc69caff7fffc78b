/**
 * The knowledge features in the TUI: the Instructions and Memory panel rows, and the over-budget
 * instructions warning in the transcript (never a silent cut).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { createProject, type Project } from './harness.js';
import { type PtySession, spawnTui } from './pty.js';

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
});
