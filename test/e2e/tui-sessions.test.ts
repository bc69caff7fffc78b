/**
 * Sessions in the TUI, in a real pty: the panel's Session row, `/sessions`, `/new`, `/open` (the
 * opened conversation is what the next request carries), the resume hint printed on exit, and a
 * session planted in an untrusted folder's `.geekagent/sessions` not loaded by `--continue`.
 */
import { describe, expect, it } from 'vitest';
import { KEYS, type PtySession, tuiFixture } from './pty.js';

const fx = tuiFixture();
let tui: PtySession | undefined;

function type(screen: PtySession, text: string): void {
  screen.send(text);
  screen.send(KEYS.enter);
}

/** The id the panel's Session row shows. */
function panelSession(screen: PtySession): string {
  const match = /Session ([A-Za-z0-9_-]+)/.exec(screen.screen());
  if (!match) throw new Error(`no Session row on screen:\n${screen.screen()}`);
  return match[1]!;
}

describe('sessions in the TUI', () => {
  it('/sessions lists them, /new starts one, /open goes back, and exit says how to resume', async () => {
    tui = fx.start({ cols: 120, rows: 40 });
    await tui.waitFor(/Session [a-z0-9]{8}/);
    const first = panelSession(tui);

    fx.fake.push({ text: 'Noted: the blue door.' });
    type(tui, 'remember the blue door');
    await tui.waitFor('Noted: the blue door.');

    type(tui, '/new red-room');
    await tui.waitFor('new session red-room');
    await tui.waitFor('Session red-room');
    fx.fake.push({ text: 'Noted: the red room.' });
    type(tui, 'remember the red room');
    await tui.waitFor('Noted: the red room.');

    type(tui, '/sessions');
    await tui.waitUntil(
      (screen) =>
        /\* red-room .* 1 turn {2}remember the red room/.test(screen) && screen.includes(`  ${first}`),
      'both sessions listed, the current one marked',
    );
    expect(tui.screen()).toMatch(new RegExp(`  ${first} .* 1 turn  remember the blue door`));

    type(tui, `/open ${first}`);
    await tui.waitFor(`opened session ${first} (1 turn)`);
    await tui.waitFor('last message: remember the blue door');
    await tui.waitFor(`Session ${first}`);
    fx.fake.push({ text: 'It was the blue door.' });
    type(tui, 'which door?');
    await tui.waitFor('It was the blue door.');
    const thread = fx.fake.requests[2]!.body.messages.filter((m) => m.role !== 'system').map(
      (m) => m.content,
    );
    expect(thread).toEqual(['remember the blue door', 'Noted: the blue door.', 'which door?']);

    type(tui, '/exit');
    await tui.waitFor(new RegExp(`^resume with: geekagent --resume ${first}$`, 'm'));
    expect(await tui.exited()).toBe(0);
  });

  it('--continue reopens the last session with its recent messages on screen', async () => {
    fx.fake.push({ text: 'Hello, Grace.' });
    tui = fx.start({ cols: 120, rows: 40 });
    await tui.waitFor(/Session [a-z0-9]{8}/);
    const id = panelSession(tui);
    type(tui, 'I am Grace');
    await tui.waitFor('Hello, Grace.');
    type(tui, '/exit');
    expect(await tui.exited()).toBe(0);
    await tui.dispose();

    tui = fx.start({ cols: 120, rows: 40, args: ['--continue'] });
    await tui.waitFor(`opened session ${id} (1 turn)`);
    expect(tui.screen()).toContain('I am Grace');
    expect(tui.screen()).toContain('Hello, Grace.');
    expect(panelSession(tui)).toBe(id);
  });

  it("shows the person's words alone: what was recalled for the turn is not on screen after --continue", async () => {
    await fx.project.write(
      '.geekagent/memory.json',
      JSON.stringify({
        version: 1,
        entries: [
          {
            id: 'm00000001',
            content: 'Grace prefers the night shift',
            created: new Date().toISOString(),
            scope: 'project',
          },
        ],
      }),
    );
    fx.fake.push({ text: 'Hello, Grace.' });
    tui = fx.start({ cols: 120, rows: 40 });
    await tui.waitFor(/Session [a-z0-9]{8}/);
    type(tui, 'I am Grace, on the night shift');
    await tui.waitFor('Hello, Grace.');
    // The model got the recalled note in the turn's message; the screen shows the words only.
    expect(String(fx.fake.requests[0]!.body.messages.at(-1)!.content)).toContain(
      'Grace prefers the night shift',
    );
    expect(tui.screen()).not.toContain('prefers the night shift');
    type(tui, '/exit');
    expect(await tui.exited()).toBe(0);
    await tui.dispose();

    tui = fx.start({ cols: 120, rows: 40, args: ['--continue'] });
    await tui.waitFor('opened session');
    expect(tui.screen()).toContain('I am Grace, on the night shift');
    expect(tui.screen()).not.toContain('turn-context');
    expect(tui.screen()).not.toContain('prefers the night shift');
  });
});

describe('sessions an earlier version kept in the project folder, in the TUI', () => {
  it('an untrusted folder: --continue starts a new session, the notice says why, /sessions lists none', async () => {
    const at = Date.parse('2026-01-02T03:04:05Z');
    const line = (value: unknown) => `${JSON.stringify(value)}\n`;
    await fx.project.write(
      '.geekagent/sessions/planted.jsonl',
      line({ type: 'session', version: 1, id: 'planted', created: new Date(at).toISOString(), cwd: '/' }) +
        line({ t: at, type: 'append', message: { id: 'p1', role: 'user', text: 'PLANTED-QUESTION' } }),
    );
    tui = fx.start({ cols: 140, rows: 40, args: ['--continue'], trusted: false });
    await tui.waitFor('this folder holds sessions an earlier version saved in it');
    await tui.waitFor('loaded until you trust the folder');
    await tui.waitFor(/Session [a-z0-9]{8}/);
    expect(panelSession(tui)).not.toBe('planted');
    type(tui, '/sessions');
    await tui.waitFor('(no saved sessions in this folder yet)');
    expect(tui.screen()).not.toContain('PLANTED-QUESTION');
  });
});
