/**
 * Project instructions end to end: AGENTS.md from the git root down to the working folder, the
 * CLAUDE.md fallback, the user's own AGENTS.md, `@path` imports (inside the root only, cycles
 * ignored), and the over-budget cut that is announced on stderr, never silent.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFixture } from './harness.js';

const fx = cliFixture();

const systemPrompt = (n = 0) => String(fx.fake.requests[n]!.body.messages[0]!.content);

describe('project instructions', () => {
  it('reads AGENTS.md from the git root down to the working folder, with fallbacks, imports and the user file', async () => {
    await mkdir(path.join(fx.project.dir, '.git'));
    await fx.project.write('AGENTS.md', 'ROOT-RULE: run npm test.\nSee @docs/style.md for style.');
    await fx.project.write(
      'docs/style.md',
      'STYLE-RULE: tabs never.\n@docs/style.md again (a cycle)\n@../outside.md',
    );
    await fx.project.write('../outside.md', 'OUTSIDE-SECRET');
    await fx.project.write('pkg/CLAUDE.md', 'PKG-RULE from CLAUDE.md');
    await fx.project.write('pkg/app/AGENTS.md', 'APP-RULE nearest folder');
    await fx.project.write('pkg/app/CLAUDE.md', 'IGNORED because AGENTS.md exists here');
    await fx.project.write('../home/.geekagent/AGENTS.md', 'USER-RULE: be brief.');
    fx.fake.push({ text: 'ok' });
    const run = await fx.run(['-p', 'hi', '--cwd', 'pkg/app']);
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
    await fx.project.write('AGENTS.md', `FIRST-LINE\n${'x'.repeat(5000)}\nLAST-LINE`);
    fx.fake.push({ text: 'ok' });
    const run = await fx.run(['-p', 'hi'], { env: { GEEKAGENT_INSTRUCTIONS_MAX_BYTES: '1000' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/project instructions are \d+ bytes, over the 1000-byte budget/);
    const system = systemPrompt();
    expect(system).toContain('FIRST-LINE');
    expect(system).not.toContain('LAST-LINE');
    expect(system).toContain('project instructions cut');
  });

  it('/init submits a prompt asking the model to write AGENTS.md', async () => {
    fx.fake.push({ text: 'I would write it now.' });
    const run = await fx.run(['-p', '/init']);
    expect(run.code, run.stderr).toBe(0);
    const user = fx.fake.requests[0]!.body.messages.find((m) => m.role === 'user');
    expect(String(user?.content)).toContain('write an AGENTS.md');
  });
});
