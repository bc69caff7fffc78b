/**
 * The panel rows and memory behaviour of the knowledge extensions through the real ExtensionHost
 * on real files: `Instructions N files, X` and `Memory N entries`, recall's heading and
 * budget, and refusal of a symlinked memory file.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExtensionHost } from '../../../src/extensions/host.js';
import { createMemoryBank, memoryExtension, RECALL_HEADING } from '../../../src/memory/feature/extension.js';
import { projectInstructionsExtension } from '../../../src/project-instructions/extension.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { noRedaction } from '../../../src/util/redact.js';

let base: string;
let project: string;
let userDir: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'geekagent-knowledge-'));
  project = path.join(base, 'project');
  userDir = path.join(base, 'home', '.geekagent');
  await mkdir(project, { recursive: true });
  await mkdir(userDir, { recursive: true });
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function newHost(): ExtensionHost {
  return new ExtensionHost({ registry: new ToolRegistry(), policies: { ensureToolPolicy: () => undefined } });
}

const turn = (input: string) => ({ input, signal: new AbortController().signal, notify: () => undefined });

describe('knowledge panel rows', () => {
  it('shows instruction files and bytes, and memory entries and chunks', async () => {
    await writeFile(path.join(project, 'AGENTS.md'), 'Use tabs.');
    await writeFile(path.join(userDir, 'AGENTS.md'), 'Be brief.');
    const bank = createMemoryBank({ projectDir: project, userDir, redact: noRedaction() });
    const host = newHost();
    await host.add(
      projectInstructionsExtension({ cwd: project, root: project, userDir, env: {} }),
      memoryExtension(bank),
    );
    const row = (label: string) => host.panelRows().find((r) => r.label === label)?.value;
    expect(row('Instructions')).toMatch(/^2 files, \d+ B$/);
    expect(row('Memory')).toBe('0 entries');
    await bank.write('The release branch is called stable and is cut every Friday afternoon.');
    await bank.write(`${'A long memory about the deployment pipeline. '.repeat(12)}`, 'user');
    await bank.refresh();
    expect(row('Memory')).toBe('2 entries');

    const sections = await host.turnPoints.promptSections(turn('when is the release branch cut?'));
    const recall = sections.find((s) => s.text.startsWith(RECALL_HEADING));
    expect(recall?.text).toContain('release branch is called stable');
    const none = await host.turnPoints.promptSections(turn('zebra giraffe'));
    expect(none.some((s) => s.text.startsWith(RECALL_HEADING))).toBe(false);
  });

  it('refuses a symlinked memory file instead of writing through it', async () => {
    const outside = path.join(base, 'elsewhere.json');
    await writeFile(outside, '[]');
    await mkdir(path.join(project, '.geekagent'));
    await symlink(outside, path.join(project, '.geekagent', 'memory.json'));
    const bank = createMemoryBank({ projectDir: project, userDir, redact: noRedaction() });
    await expect(bank.write('something to remember')).rejects.toThrow(/symbolic link/);
  });
});
