/**
 * Approval modes in the TUI: Shift+Tab (ESC [ Z) cycles default → accept-edits → plan → default,
 * the panel's Mode row follows, and the mode decides the next call; in plan mode the model's
 * exit_plan_mode asks the person whether to carry the plan out and in which mode.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEYS, tuiFixture } from './pty.js';

const fx = tuiFixture({ cols: 120, rows: 30 });

const SHIFT_TAB = '\u001b[Z';
const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

describe('approval modes in the TUI', () => {
  it('Shift+Tab cycles the modes, shown in the panel, and the next write follows the mode', async () => {
    fx.fake.push(
      { toolCalls: [call('write', { path: 'a.txt', content: 'unasked\n' })] },
      { text: 'wrote it' },
    );
    const tui = fx.start();
    await tui.waitFor('Type /help for commands.');
    await tui.waitFor(/Mode\s+default/);
    tui.send(SHIFT_TAB);
    await tui.waitFor(/Mode\s+accept-edits/);
    tui.send(SHIFT_TAB);
    await tui.waitFor(/Mode\s+plan/);
    // Bypass is not in the cycle unless the person chose it: plan goes back to default.
    tui.send(SHIFT_TAB);
    await tui.waitFor(/Mode\s+default/);
    tui.send(SHIFT_TAB);
    await tui.waitFor(/Mode\s+accept-edits/);

    tui.send('write a.txt');
    tui.send(KEYS.enter);
    await tui.waitFor('wrote it');
    expect(tui.screen()).not.toContain('Confirm execution?');
    expect(await readFile(path.join(fx.project.dir, 'a.txt'), 'utf8')).toBe('unasked\n');
  });

  it('plan mode: exit_plan_mode asks the person, and "accept edits" carries the plan out unasked', async () => {
    fx.fake.push(
      { toolCalls: [call('write', { path: 'early.txt', content: 'too soon' })] },
      { toolCalls: [call('exit_plan_mode', { plan: 'Step one: write plan.txt' })] },
      { toolCalls: [call('write', { path: 'plan.txt', content: 'carried out\n' })] },
      { text: 'plan carried out' },
    );
    const tui = fx.start({ args: ['--approval-mode', 'plan'] });
    await tui.waitFor('Type /help for commands.');
    await tui.waitFor(/Mode\s+plan/);
    tui.send('make a plan');
    tui.send(KEYS.enter);
    await tui.waitFor('Leave plan mode and carry out this plan?');
    await tui.waitFor('[y] yes, ask before edits · [a] yes, accept edits · [N] no, keep planning');
    expect(tui.screen()).toContain('Step one: write plan.txt');
    // The write before the plan was refused by plan mode, not asked.
    expect(existsSync(path.join(fx.project.dir, 'early.txt'))).toBe(false);
    tui.send('a');
    await tui.waitFor('plan carried out');
    await tui.waitFor(/Mode\s+accept-edits/);
    expect(await readFile(path.join(fx.project.dir, 'plan.txt'), 'utf8')).toBe('carried out\n');
    const toolResults = fx.fake.requests[2]!.body.messages.filter((m) => m.role === 'tool');
    expect(String(toolResults[0]!.content)).toMatch(/^plan mode: write was not run/);
    expect(String(toolResults[1]!.content)).toContain('approval mode is now accept-edits');
  });

  it('plan mode: "no" keeps planning', async () => {
    fx.fake.push(
      { toolCalls: [call('exit_plan_mode', { plan: 'Step one: nothing yet' })] },
      { text: 'still planning' },
    );
    const tui = fx.start({ args: ['--approval-mode', 'plan'] });
    await tui.waitFor('Type /help for commands.');
    tui.send('make a plan');
    tui.send(KEYS.enter);
    await tui.waitFor('Leave plan mode and carry out this plan?');
    tui.send('n');
    await tui.waitFor('still planning');
    expect(tui.screen()).toMatch(/Mode\s+plan/);
    const result = fx.fake.requests[1]!.body.messages.filter((m) => m.role === 'tool');
    expect(String(result[0]!.content)).toContain('kept plan mode on');
  });
});
