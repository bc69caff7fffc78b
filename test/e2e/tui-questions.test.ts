/**
 * An approval shows what runs (issue 25): a command padded with blank lines shows its end, the
 * padding counted (`⟨59 blank lines⟩`); one too long to show says it is cut and Ctrl+T opens the
 * whole command in the pager, where its last line can be read before answering.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEYS, type PtySession, tuiFixture } from './pty.js';

// run_shell stands for "a tool that is asked" here; confined by the sandbox it would run unasked.
const fx = tuiFixture({ cols: 120, rows: 30, env: { GEEKAGENT_SANDBOX: 'off' } });

const inputLine = (tui: PtySession) => tui.screen().trimEnd().split('\n').pop() ?? '';

async function askedToRun(tui: PtySession): Promise<void> {
  await tui.waitFor('About to run a shell command');
  await tui.waitUntil(
    () => inputLine(tui).startsWith('Confirm execution? [y/N/a]'),
    'the prompt in the input line',
  );
}

function runShell(command: string): void {
  fx.fake.push(
    { toolCalls: [{ name: 'run_shell', arguments: JSON.stringify({ command }) }] },
    { text: 'declined, fine' },
  );
}

describe('an approval shows the whole command', () => {
  it('counts blank-line padding instead of drawing it: the end of the command stays on screen', async () => {
    runShell(`echo harmless${'\n'.repeat(60)}touch hidden-end`);
    const tui = fx.start();
    await tui.waitFor('Type /help for commands.');
    tui.send('tidy up');
    tui.send(KEYS.enter);
    await askedToRun(tui);
    const screen = tui.screen();
    expect(screen).toContain('$ echo harmless');
    expect(screen).toContain('⟨59 blank lines⟩');
    expect(screen).toContain('touch hidden-end');
    expect(screen).toContain('shortened · Ctrl+T shows it whole');
    tui.send('n');
    await tui.waitFor('declined, fine');
    expect(existsSync(path.join(fx.project.dir, 'hidden-end'))).toBe(false);
  });

  it('a command too long to show says so, and Ctrl+T opens all of it in the pager', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => `echo step-${i}`);
    runShell([...lines, 'touch the-last-line'].join('\n'));
    const tui = fx.start();
    await tui.waitFor('Type /help for commands.');
    tui.send('tidy up');
    tui.send(KEYS.enter);
    await askedToRun(tui);
    expect(tui.screen()).toMatch(/\(… \d+ more lines · Ctrl\+T shows it whole\)/);
    expect(tui.screen()).not.toContain('touch the-last-line');

    tui.send('\u0014');
    await tui.waitFor(/rows 1–\d+ of 62/);
    expect(tui.screen()).toContain('About to run a shell command');
    tui.send('\u001b[4~');
    await tui.waitFor('touch the-last-line');
    // The pager took the keys: the question is still open once it closes.
    tui.send('q');
    await askedToRun(tui);
    tui.send('n');
    await tui.waitFor('declined, fine');
    expect(existsSync(path.join(fx.project.dir, 'the-last-line'))).toBe(false);
  });
});
