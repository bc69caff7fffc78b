/**
 * Custom commands in the TUI (a real pty): typing `/fro` shows the matching commands under the
 * input and Tab completes the namespaced `/frontend:review`; `/help` lists the custom commands;
 * a command's `model` is used for its turn and the next message is back on the session's model.
 */
import { describe, expect, it } from 'vitest';
import { tuiFixture } from './pty.js';

const fx = tuiFixture({ cols: 120, rows: 40 });

describe('custom commands in the TUI', () => {
  it('completes a /name with Tab, lists the commands in /help, and restores the model after a command’s turn', async () => {
    await fx.project.write(
      '.geekagent/commands/review.md',
      '---\ndescription: Review code\n---\nReview $ARGUMENTS.\n',
    );
    await fx.project.write('.geekagent/commands/frontend/review.md', 'Review the frontend part $1.\n');
    await fx.project.write('.geekagent/commands/fast.md', '---\nmodel: other-model\n---\nBe quick.\n');
    const tui = fx.start();
    await tui.waitFor(/Session [a-z0-9]{8}/);

    tui.send('/fro');
    await tui.waitFor('/frontend:review  · Tab completes');
    tui.send('\t');
    await tui.waitFor('› /frontend:review');
    fx.fake.push({ text: 'frontend reviewed' });
    tui.send('Nav\r');
    await tui.waitFor('frontend reviewed');
    expect(JSON.stringify(fx.fake.requests[0]!.body.messages)).toContain('Review the frontend part Nav.');

    tui.send('/help\r');
    await tui.waitFor(/\/review\s+\(project\) Review code/);
    expect(tui.screen()).toMatch(/\/frontend:review\s+\(project\) Review the frontend part \$1\./);

    fx.fake.push({ text: 'quick answer' }, { text: 'normal answer' });
    tui.send('/fast\r');
    await tui.waitFor('quick answer');
    tui.send('plain\r');
    await tui.waitFor('normal answer');
    expect(fx.fake.requests.slice(1).map((request) => request.body.model)).toEqual([
      'other-model',
      'fake-model',
    ]);
  });

  it('asks for a !`command` when the sandbox is off, and sends its output once allowed', async () => {
    await fx.project.write('.geekagent/commands/status.md', 'Status: !`echo branch-$1`\n');
    const tui = fx.start({ env: { GEEKAGENT_SANDBOX: 'off' } });
    await tui.waitFor(/Session [a-z0-9]{8}/);
    fx.fake.push({ text: 'status seen' });
    tui.send('/status main\r');
    await tui.waitFor('echo branch-main');
    expect(fx.fake.requests).toHaveLength(0);
    tui.send('y');
    await tui.waitFor('status seen');
    expect(JSON.stringify(fx.fake.requests[0]!.body.messages)).toContain('Status: branch-main');
  });

  it('pre-approves allowed-tools for the command’s turn only: the next message’s run_shell is asked', async () => {
    await fx.project.write('.geekagent/commands/ship.md', '---\nallowed-tools: run_shell\n---\nShip it.\n');
    const tui = fx.start({ env: { GEEKAGENT_SANDBOX: 'off' } });
    await tui.waitFor(/Session [a-z0-9]{8}/);
    const shell = (word: string) => ({
      toolCalls: [{ name: 'run_shell', arguments: JSON.stringify({ command: `echo ${word}` }) }],
    });
    fx.fake.push(shell('shipped'), { text: 'ship done' }, shell('again'), { text: 'second done' });
    tui.send('/ship\r');
    await tui.waitFor('ship done');
    expect(tui.screen()).not.toContain('Confirm execution?');
    tui.send('more\r');
    await tui.waitFor('Confirm execution?');
    expect(tui.screen()).toContain('echo again');
    tui.send('n');
    await tui.waitFor('second done');
  });
});
