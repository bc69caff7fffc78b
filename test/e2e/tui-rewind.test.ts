/**
 * `/rewind` in the TUI (a real pty, the scripted fake model): going back to before an earlier
 * message — the conversation only (the next request lacks what followed, the message is back in
 * the input line), the files only (contents back, the conversation as it was), both (a created
 * file removed); a file someone else changed since is reported and left alone; Esc Esc on an
 * empty line opens the picker; `--resume` of a rewound session continues from the rewind point,
 * the rewound lines still in its file, and rewinds the files of its earlier turns.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { userSessionsDir } from '../helpers/session-files.js';
import { runCli } from './harness.js';
import { KEYS, type PtySession, tuiFixture } from './pty.js';

const fx = tuiFixture({ cols: 120, rows: 40, args: ['--allow', 'write'] });

const PICK_MESSAGE = 'Rewind: go back to before which message?';
const CTRL_U = '\u0015';

const write = (file: string, content: string) => ({
  name: 'write',
  arguments: JSON.stringify({ path: file, content }),
});

function type(tui: PtySession, text: string): void {
  tui.send(text);
  tui.send(KEYS.enter);
}

const fileIn = (name: string) => path.join(fx.project.dir, name);
const contentOf = (name: string) => (existsSync(fileIn(name)) ? readFileSync(fileIn(name), 'utf8') : null);

/** What the user said in request `index`, in order. */
function userMessages(index: number): unknown[] {
  return fx.fake.requests[index]!.body.messages.filter((m) => m.role === 'user').map((m) => m.content);
}

/** Two turns: the first creates notes.txt (v1), the second changes it (v2). */
async function twoTurns(tui: PtySession): Promise<void> {
  fx.fake.push(
    { toolCalls: [write('notes.txt', 'v1')] },
    { text: 'Wrote v1.' },
    { toolCalls: [write('notes.txt', 'v2')] },
    { text: 'Wrote v2.' },
  );
  await tui.waitFor('Type /help');
  type(tui, 'make the notes');
  await tui.waitFor('Wrote v1.');
  type(tui, 'change the notes');
  await tui.waitFor('Wrote v2.');
  expect(contentOf('notes.txt')).toBe('v2');
}

/** Opens /rewind, picks the message `down` lines below the newest, then the mode `modeDown` lines down. */
async function rewind(tui: PtySession, down: number, modeDown: number): Promise<void> {
  type(tui, '/rewind');
  await tui.waitFor(PICK_MESSAGE);
  tui.send(KEYS.down.repeat(down));
  tui.send(KEYS.enter);
  await tui.waitFor('Conversation and files');
  tui.send(KEYS.down.repeat(modeDown));
  tui.send(KEYS.enter);
}

describe('/rewind in the TUI', () => {
  it('lists the messages newest first; conversation only drops what followed and puts the message back', async () => {
    const tui = fx.start();
    await twoTurns(tui);
    type(tui, '/rewind');
    await tui.waitFor(PICK_MESSAGE);
    await tui.waitUntil(
      (screen) =>
        /› change the notes {2}\(1 file changed since\)/.test(screen) &&
        screen.includes('  make the notes  (1 file changed since)') &&
        screen.indexOf('change the notes  (') < screen.indexOf('make the notes  ('),
      'the two messages, newest first and selected',
    );
    tui.send(KEYS.enter);
    await tui.waitFor('Conversation only');
    tui.send(KEYS.down);
    tui.send(KEYS.enter);
    await tui.waitFor('conversation rewound: 1 turn dropped (still in the session file)');
    // The rewound message is back in the input line; the file is as the agent left it.
    await tui.waitFor('› change the notes');
    expect(contentOf('notes.txt')).toBe('v2');
    // The dropped turn has left the screen: the kept one, then the report.
    const shown = tui.screen();
    expect(shown).not.toContain('You › change the notes');
    expect(shown).not.toContain('Wrote v2.');
    expect(shown).not.toContain('You › /rewind');
    expect(shown.indexOf('You › make the notes')).toBeGreaterThan(-1);
    expect(shown.indexOf('Wrote v1.')).toBeLessThan(shown.indexOf('conversation rewound'));

    fx.fake.push({ text: 'Back at the first turn.' });
    tui.send(CTRL_U);
    type(tui, 'what now?');
    await tui.waitFor('Back at the first turn.');
    const request = fx.fake.requests.at(-1)!;
    expect(userMessages(fx.fake.requests.length - 1)).toEqual(['make the notes', 'what now?']);
    expect(JSON.stringify(request.body.messages)).not.toContain('Wrote v2.');
    expect(JSON.stringify(request.body.messages)).toContain('Wrote v1.');
  });

  it('files only restores the contents and leaves the conversation as it was', async () => {
    const tui = fx.start();
    await twoTurns(tui);
    await rewind(tui, 0, 2);
    await tui.waitFor('files restored: notes.txt');
    expect(contentOf('notes.txt')).toBe('v1');
    expect(tui.screen()).not.toContain('conversation rewound');

    fx.fake.push({ text: 'Still here.' });
    type(tui, 'and now?');
    await tui.waitFor('Still here.');
    expect(userMessages(fx.fake.requests.length - 1)).toEqual([
      'make the notes',
      'change the notes',
      'and now?',
    ]);
  });

  it('both: files back to before the first message (a created file removed), a file changed by someone else reported and kept', async () => {
    await fx.project.write('mine.txt', 'not the agent’s');
    fx.fake.push(
      { toolCalls: [write('a.txt', 'one')] },
      { text: 'Made a.' },
      { toolCalls: [write('a.txt', 'two'), write('b.txt', 'bee')] },
      { text: 'Changed a, made b.' },
    );
    const tui = fx.start();
    await tui.waitFor('Type /help');
    type(tui, 'make a');
    await tui.waitFor('Made a.');
    type(tui, 'change a, make b');
    await tui.waitFor('Changed a, made b.');
    // Someone else edits b.txt after the agent wrote it.
    writeFileSync(fileIn('b.txt'), 'edited by hand');

    await rewind(tui, 1, 0);
    await tui.waitFor('files the agent created, removed: a.txt');
    await tui.waitFor('changed since the agent wrote them, not overwritten: b.txt');
    await tui.waitFor('conversation rewound: 2 turns dropped');
    expect(contentOf('a.txt')).toBeNull();
    expect(contentOf('b.txt')).toBe('edited by hand');
    expect(contentOf('mine.txt')).toBe('not the agent’s');
    await tui.waitFor('› make a');

    fx.fake.push({ text: 'Fresh start.' });
    tui.send(CTRL_U);
    type(tui, 'hello again');
    await tui.waitFor('Fresh start.');
    expect(userMessages(fx.fake.requests.length - 1)).toEqual(['hello again']);
    expect(fx.fake.requests.at(-1)!.body.messages.filter((m) => m.role === 'assistant')).toEqual([]);
  });

  it('Esc Esc on an empty input line opens the picker; Esc closes it', async () => {
    const tui = fx.start();
    fx.fake.push({ text: 'Hi.' });
    await tui.waitFor('Type /help');
    type(tui, 'hello');
    await tui.waitFor('Hi.');
    tui.send(KEYS.escape);
    await tui.waitFor('Esc again to rewind');
    tui.send(KEYS.escape);
    await tui.waitFor(PICK_MESSAGE);
    await tui.waitFor('› hello');
    tui.send(KEYS.escape);
    await tui.waitFor('rewind cancelled');
    expect(tui.screen()).not.toContain(PICK_MESSAGE);
  });

  it('a rewind opened while scrolled up (Esc Esc) shows the end again: the report under the kept turn', async () => {
    const long = Array.from({ length: 60 }, (_, i) => `row ${i + 1} of the first answer`).join('\n\n');
    fx.fake.push({ text: long }, { text: 'Second answer.' });
    const tui = fx.start({ rows: 24 });
    await tui.waitFor('Type /help');
    type(tui, 'first');
    await tui.waitFor('row 60 of the first answer');
    type(tui, 'second');
    await tui.waitFor('Second answer.');
    tui.send(KEYS.pageUp);
    await tui.waitUntil((screen) => !screen.includes('Second answer.'), 'scrolled up');
    tui.send(KEYS.escape);
    await tui.waitFor('Esc again to rewind');
    tui.send(KEYS.escape);
    await tui.waitFor(PICK_MESSAGE);
    tui.send(KEYS.enter);
    await tui.waitFor('Conversation only');
    tui.send(KEYS.down);
    tui.send(KEYS.enter);
    await tui.waitFor('conversation rewound: 1 turn dropped');
    const screen = tui.screen();
    expect(screen).toContain('row 60 of the first answer');
    expect(screen).not.toContain('Second answer.');
    expect(screen).not.toContain('You › second');
  });

  it('--resume of a rewound session continues from the rewind point and can still rewind the files', async () => {
    let tui = fx.start();
    await twoTurns(tui);
    await rewind(tui, 0, 1);
    await tui.waitFor('conversation rewound: 1 turn dropped');
    tui.send(CTRL_U);
    type(tui, '/exit');
    const resume = /resume with: geekagent --resume (\S+)/;
    await tui.waitFor(resume);
    const id = resume.exec(tui.screen())![1]!;
    expect(await tui.exited()).toBe(0);
    await tui.dispose();

    // The rewound turn is still in the file, marked by the rewind record.
    const log = readFileSync(path.join(userSessionsDir(fx.project), `${id}.jsonl`), 'utf8');
    expect(log).toContain('change the notes');
    expect(log).toContain('Wrote v2.');
    expect(log).toMatch(/"type":"rewind","to":"/);

    tui = fx.start({ args: ['--allow', 'write', '--resume', id] });
    await tui.waitFor(`opened session ${id} (1 turn)`);
    fx.fake.push({ text: 'Resumed at turn one.' });
    type(tui, 'where are we?');
    await tui.waitFor('Resumed at turn one.');
    expect(userMessages(fx.fake.requests.length - 1)).toEqual(['make the notes', 'where are we?']);
    expect(JSON.stringify(fx.fake.requests.at(-1)!.body.messages)).not.toContain('Wrote v2.');

    // The undo log survived: the files of the first turn and of the rewound one go back too.
    expect(contentOf('notes.txt')).toBe('v2');
    await rewind(tui, 1, 2);
    await tui.waitFor('files the agent created, removed: notes.txt');
    expect(contentOf('notes.txt')).toBeNull();
  });

  it('names the commands run since then, which it did not undo (escaped, a few), and the scrollback keeps only the kept turns', async () => {
    const shell = (command: string) => ({ name: 'run_shell', arguments: JSON.stringify({ command }) });
    fx.fake.push(
      { text: 'Hello.' },
      { toolCalls: [shell('echo one > one.txt'), shell('echo "\u001b[2Jtwo" > two.txt')] },
      { toolCalls: [shell('echo 3'), shell('echo 4'), shell('echo 5'), shell('echo 6'), shell('echo 7')] },
      { text: 'Ran them.' },
    );
    const tui = fx.start({
      args: ['--allow', 'write', '--allow', 'run_shell'],
      env: { GEEKAGENT_SANDBOX: 'off' },
    });
    await tui.waitFor('Type /help');
    type(tui, 'say hello');
    await tui.waitFor('Hello.');
    type(tui, 'run things');
    await tui.waitFor('Ran them.');
    expect(contentOf('one.txt')).toBe('one\n');

    await rewind(tui, 0, 0);
    await tui.waitFor('conversation rewound: 1 turn dropped');
    await tui.waitFor('not undone: 7 commands run since then');
    // The line wraps beside the panel: read the transcript's column as one text.
    const said = tui
      .screen()
      .split('\n')
      .map((row) => row.split('│')[0]!.trim())
      .join(' ');
    expect(said).toContain(
      'not undone: 7 commands run since then (rewind restores only files the agent wrote): `echo one > one.txt`, `echo "^[[2Jtwo" > two.txt`, `echo 3`, `echo 4`, `echo 5` and 2 more',
    );
    // What a command did stays done.
    expect(contentOf('one.txt')).toBe('one\n');
    expect(tui.screen()).not.toContain('You › run things');
    expect(tui.screen()).not.toContain('Ran them.');

    tui.send(CTRL_U);
    type(tui, '/exit');
    // The last line out: everything before it is on the screen too.
    await tui.waitFor(/^resume with: geekagent --resume /m);
    expect(await tui.exited()).toBe(0);
    const kept = tui.lines().join('\n');
    expect(kept).toContain('You › say hello');
    expect(kept).toContain('Hello.');
    expect(kept).toContain('conversation rewound: 1 turn dropped');
    expect(kept).not.toContain('You › run things');
    expect(kept).not.toContain('Ran them.');
  });

  it('print mode says /rewind is interactive only', async () => {
    const run = await runCli(['-p', '/rewind'], { project: fx.project, modelUrl: fx.fake.url });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('/rewind picks a message interactively and is not available in print mode');
  });
});
