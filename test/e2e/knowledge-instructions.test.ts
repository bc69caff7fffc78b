/**
 * Project instructions end to end: AGENTS.md from the git root down to the working folder, the
 * CLAUDE.md fallback, the user's own AGENTS.md, `@path` imports (inside the root only, cycles
 * ignored), and the over-budget cut that is announced on stderr, never silent.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { createProject, type Project, runCli } from './harness.js';

let project: Project;
let fake: FakeModel;

beforeEach(async () => {
  project = await createProject();
  fake = await startFakeModel();
});

afterEach(async () => {
  await fake.close();
  await project.cleanup();
});

const systemPrompt = (n = 0) => String(fake.requests[n]!.body.messages[0]!.content);

describe('project instructions', () => {
  it('reads AGENTS.md from the git root down to the working folder, with fallbacks, imports and the user file', async () => {
    await mkdir(path.join(project.dir, '.git'));
    await project.write('AGENTS.md', 'ROOT-RULE: run npm test.\nSee @docs/style.md for style.');
    await project.write(
      'docs/style.md',
      'STYLE-RULE: tabs never.\n@docs/style.md again (a cycle)\n@../outside.md',
    );
    await project.write('../outside.md', 'OUTSIDE-SECRET');
    await project.write('pkg/CLAUDE.md', 'PKG-RULE from CLAUDE.md');
    await project.write('pkg/app/AGENTS.md', 'APP-RULE nearest folder');
    await project.write('pkg/app/CLAUDE.md', 'IGNORED because AGENTS.md exists here');
    await project.write('../home/.geekagent/AGENTS.md', 'USER-RULE: be brief.');
    fake.push({ text: 'ok' });
    const run = await runCli(['-p', 'hi', '--cwd', 'pkg/app'], { project, modelUrl: fake.url });
    expect(run.code, run.stderr).toBe(0);
    const system = systemPrompt();
    const order = ['USER-RULE', 'ROOT-RULE', 'STYLE-RULE', 'PKG-RULE', 'APP-RULE'].map((m) =>
      system.indexOf(m),
    );
    expect(
      order.every((i) => i >= 0),
      system,
    ).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(system).not.toContain('OUTSIDE-SECRET');
    expect(system).not.toContain('IGNORED because');
    expect(system).toContain('# pkg/app/AGENTS.md');
    expect(run.stderr).not.toContain('budget');
  });

  it('cuts instructions over the budget with a warning on stderr', async () => {
    await project.write('AGENTS.md', `FIRST-LINE\n${'x'.repeat(5000)}\nLAST-LINE`);
    fake.push({ text: 'ok' });
    const run = await runCli(['-p', 'hi'], {
      project,
      modelUrl: fake.url,
      env: { GEEKAGENT_INSTRUCTIONS_MAX_BYTES: '1000' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/project instructions are \d+ bytes, over the 1000-byte budget/);
    const system = systemPrompt();
    expect(system).toContain('FIRST-LINE');
    expect(system).not.toContain('LAST-LINE');
    expect(system).toContain('project instructions cut');
  });

  it('/init submits a prompt asking the model to write AGENTS.md', async () => {
    fake.push({ text: 'I would write it now.' });
    const run = await runCli(['-p', '/init'], { project, modelUrl: fake.url });
    expect(run.code, run.stderr).toBe(0);
    const user = fake.requests[0]!.body.messages.find((m) => m.role === 'user');
    expect(String(user?.content)).toContain('write an AGENTS.md');
  });
});
