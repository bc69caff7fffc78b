/**
 * Background shells in the TUI (a real pty): the panel lists a running shell, `/shells` lists it
 * with its command made safe to print (an escape sequence in it shows as `^[`), `/shells kill`
 * stops it (the panel marks it ended), and a shell still running when the person leaves with
 * Ctrl+C is gone with the session — checked by pid.
 */
import { describe, expect, it } from 'vitest';
import { descendants, isAlive, waitFor } from '../helpers/wait.js';
import { toolMessages } from './harness.js';
import { KEYS, tuiFixture } from './pty.js';

const fx = tuiFixture({ cols: 120, rows: 40 });

const background = (command: string) => ({
  name: 'run_shell',
  arguments: JSON.stringify({ command, background: true }),
});

function startedPid(): number {
  const request = fx.fake.requests.at(-1)!;
  const started = toolMessages(request.body).findLast((text) => text.startsWith('started background shell'));
  const match = /\(pid (\d+)\)/.exec(started ?? '');
  if (!match) throw new Error(`no background shell pid in: ${started}`);
  return Number(match[1]);
}

describe('background shells in the TUI', () => {
  it('lists them in the panel and /shells, stops one with /shells kill, and the rest when the person leaves', async () => {
    await fx.project.tools({ run_shell: 'allow' });
    fx.fake.push(
      { toolCalls: [background(': \u001b[31mred; sleep 300 & echo one-up; wait')] },
      { text: 'First one runs.' },
      { toolCalls: [background('sleep 300 & echo two-up; wait')] },
      { text: 'Second one runs.' },
    );
    const tui = fx.start();
    await tui.waitFor('Type /help');
    tui.send('start the first');
    tui.send(KEYS.enter);
    await tui.waitFor('First one runs.');
    const first = [startedPid(), ...descendants(startedPid())];
    await tui.waitFor('Shells 1 running, 0 ended');
    expect(tui.screen()).toContain('[>] shell-1 : ^[[31mred…');

    tui.send('/shells');
    tui.send(KEYS.enter);
    await tui.waitFor(/shell-1 {2}still running {2}\d+s {2}: \^\[\[31mred; sleep 300 & echo one-up; wait/);
    expect(tui.output()).not.toContain('\u001b[31mred');

    tui.send('/shells kill shell-1');
    tui.send(KEYS.enter);
    await tui.waitFor('stopped shell-1');
    await tui.waitFor('Shells 0 running, 1 ended');
    expect(first.filter(isAlive)).toEqual([]);

    tui.send('start the second');
    tui.send(KEYS.enter);
    await tui.waitFor('Second one runs.');
    const second = [startedPid(), ...descendants(startedPid())];
    expect(second.length).toBeGreaterThanOrEqual(2);
    await tui.waitFor('Shells 1 running, 1 ended');

    // Idle, Ctrl+C leaves: the session ends and takes the shell's process group with it.
    tui.send(KEYS.ctrlC);
    expect(await tui.exited()).toBe(0);
    await waitFor(() => second.every((pid) => !isAlive(pid)), { what: 'the second shell to end' });
  });
});
