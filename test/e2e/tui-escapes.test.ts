/**
 * The TUI in a real pty never passes a model's or a tool's escape sequences to the terminal: an
 * approval question shows the exact command with its escapes visible, and model text that tries
 * to set the title, clear the screen or write the clipboard is shown as `^[…`, not executed.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEYS, type PtySession, tuiFixture } from './pty.js';

const ESC = '\u001b';
const BEL = '\u0007';

// The questions about run_shell are the subject: unconfined, so they are asked.
const fx = tuiFixture({ rows: 40, env: { GEEKAGENT_SANDBOX: 'off' } });
const start = fx.start;

const inputLine = (tui: PtySession) => tui.screen().trimEnd().split('\n').pop() ?? '';

describe('the TUI and terminal escapes', () => {
  it('asks about the exact command: a line-erasing escape cannot show `ls -la` in its place', async () => {
    // Raw, this draws as `$ ls -la` (erase the line, return, go up, erase): approving it runs touch.
    const command = `touch x #${ESC}[2K\r${ESC}[1A${ESC}[2Kls -la`;
    fx.fake.push(
      { toolCalls: [{ name: 'run_shell', arguments: JSON.stringify({ command }) }] },
      { text: 'ran it' },
    );
    const tui = start();
    await tui.waitFor('Type /help for commands.');
    tui.send('list the files');
    tui.send(KEYS.enter);
    await tui.waitFor('About to run a shell command');
    await tui.waitUntil(
      () => inputLine(tui).startsWith('Confirm execution? [y/N/a]'),
      'the prompt in the input line',
    );
    const shown = '$ touch x #^[[2K^M^[[1A^[[2Kls -la';
    expect(tui.screen()).toContain(shown);
    expect(tui.screen()).not.toMatch(/^\$ ls -la/m);

    tui.send('y');
    await tui.waitFor('ran it');
    // What ran is what was shown: touch, with the rest a comment.
    expect(existsSync(path.join(fx.project.dir, 'x'))).toBe(true);
    expect(tui.screen()).toContain(shown);
    expect(tui.screen()).toContain('Confirm execution? [y/N/a] → y');
  });

  it('model text cannot set the title, clear the screen or write the clipboard', async () => {
    const clipboard = `${ESC}]52;c;ZXZpbA==${BEL}`;
    fx.fake.push(
      { text: 'The first answer stays on screen.' },
      // The entity form too: marked decodes `&#27;` into a real ESC.
      { text: `second ${ESC}]0;pwned${BEL}${ESC}[2J${ESC}[H${clipboard} after &#27;]0;entity&#7; end` },
    );
    const tui = start();
    await tui.waitFor('Type /help for commands.');
    tui.send('hello');
    tui.send(KEYS.enter);
    await tui.waitFor('The first answer stays on screen.');
    tui.send('again');
    tui.send(KEYS.enter);
    await tui.waitFor('second ^[]0;pwned^G^[[2J^[[H^[]52;c;ZXZpbA==^G after ^[]0;entity^G end');

    const screen = tui.screen();
    expect(screen).toContain('You › hello');
    expect(screen).toContain('The first answer stays on screen.');
    expect(screen).toContain('You › again');
    const raw = tui.output();
    expect(raw).not.toContain(`${ESC}]52;`);
    expect(raw).not.toContain('ZXZpbA==\u0007');
    expect(raw).not.toContain(`${ESC}]0;pwned`);
    expect(raw).not.toContain(`${ESC}]0;entity`);
  });
});
