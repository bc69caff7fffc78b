/**
 * `/rewind`'s core against real files: the undo log's entries name their turn, and going back to
 * before a message takes back that turn's writes and every later one of this session (turns an
 * earlier conversation-only rewind dropped included; other sessions' and untagged entries never),
 * only while a file still holds what the agent wrote; the conversation's `rewind` record replays.
 */
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/agent/conversation.js';
import { UndoStack, undoFilePath } from '../../../src/permissions/undo.js';
import { sessionsDir } from '../../../src/sessions/files.js';
import { replay } from '../../../src/sessions/log.js';
import { Sessions } from '../../../src/sessions/manager.js';
import { describeRewind, Rewinder } from '../../../src/sessions/rewind.js';
import { ProtectedPaths } from '../../../src/workspace/protected.js';
import { RootSandbox } from '../../../src/workspace/root-sandbox.js';

let root: string;
let userDir: string;
const open: Sessions[] = [];

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'geekagent-rewind-')));
  userDir = await mkdtemp(path.join(os.tmpdir(), 'geekagent-rewind-home-'));
});

afterEach(async () => {
  for (const sessions of open.splice(0)) await sessions.close();
  await rm(root, { recursive: true, force: true });
  await rm(userDir, { recursive: true, force: true });
});

async function setup(
  protectedPaths?: ProtectedPaths,
  start: { kind: 'new' } | { kind: 'resume'; id: string } = { kind: 'new' },
) {
  const conversation = new Conversation();
  const { sessions } = await Sessions.create({
    projectDir: root,
    userDir,
    conversation,
    start,
    notice: () => {},
  });
  open.push(sessions);
  const undo = new UndoStack(undoFilePath(userDir, root), {
    sandbox: new RootSandbox(root),
    stateBase: userDir,
    ...(protectedPaths ? { protectedPaths } : {}),
  });
  const rewinder = new Rewinder({ conversation, sessions, undo });
  return { conversation, sessions, undo, rewinder };
}

/** A write as the write tool does it: record (with what is written), then write. */
async function agentWrites(undo: UndoStack, name: string, content: string): Promise<void> {
  const file = path.join(root, name);
  const previous = await readFile(file, 'utf8').catch(() => null);
  await undo.record(file, previous, content);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

const contentOf = (name: string) => readFile(path.join(root, name), 'utf8').catch(() => null);

/** A user message and the answer, returning the message's id. */
function say(conversation: Conversation, text: string): string {
  const id = conversation.history.append({ role: 'user', text }).id;
  conversation.history.append({ role: 'assistant', text: `ok: ${text}` });
  return id;
}

describe('Rewinder', () => {
  it('lists user messages newest first, escaped and shortened', async () => {
    const { conversation, rewinder } = await setup();
    say(conversation, 'first');
    say(conversation, `second \u001b[2J${'x'.repeat(80)}\nmore`);
    const points = rewinder.points();
    expect(points.map((point) => point.label)).toEqual([`second ^[[2J${'x'.repeat(48)}…`, 'first']);
    expect(points[0]!.text).toContain('\nmore');
  });

  it('files: takes back that turn and later ones, not earlier ones; the conversation stays', async () => {
    const { conversation, undo, rewinder } = await setup();
    say(conversation, 'one');
    await agentWrites(undo, 'a.txt', 'a1');
    const two = say(conversation, 'two');
    await agentWrites(undo, 'a.txt', 'a2');
    await agentWrites(undo, 'b.txt', 'b2');
    say(conversation, 'three');
    await agentWrites(undo, 'b.txt', 'b3');

    const files = await rewinder.filesSince(rewinder.points());
    expect(files.get(two)).toEqual(['a.txt', 'b.txt']);
    const result = await rewinder.rewind(two, 'files');
    expect(result.files).toMatchObject({ restored: ['a.txt'], removed: ['b.txt'], changed: [] });
    expect(await contentOf('a.txt')).toBe('a1');
    expect(await contentOf('b.txt')).toBeNull();
    expect(conversation.messages.filter((m) => m.role === 'user')).toHaveLength(3);
    // Only turn one's entry is left.
    expect(await undo.size()).toBe(1);
  });

  it('leaves a file changed since the agent wrote it (and its older entries), and says so', async () => {
    const { conversation, undo, rewinder } = await setup();
    const one = say(conversation, 'one');
    await agentWrites(undo, 'a.txt', 'a1');
    await agentWrites(undo, 'a.txt', 'a2');
    await agentWrites(undo, 'c.txt', 'c1');
    await writeFile(path.join(root, 'a.txt'), 'mine');
    const result = await rewinder.rewind(one, 'both');
    expect(result.files).toMatchObject({ restored: [], removed: ['c.txt'], changed: ['a.txt'] });
    expect(await contentOf('a.txt')).toBe('mine');
    expect(describeRewind(result)).toContain('changed since the agent wrote them, not overwritten: a.txt');
    // The entries of the file left alone stay in the log.
    expect(await undo.size()).toBe(2);
    expect(conversation.messages).toEqual([]);
  });

  it('a protected path is restored only when the person says so; a no leaves it (and its older entries)', async () => {
    const { conversation, undo, rewinder } = await setup(
      new ProtectedPaths({ projectDir: root, userStateDir: userDir }),
    );
    await writeFile(path.join(root, '.env'), 'A=1');
    const one = say(conversation, 'one');
    await agentWrites(undo, '.env', 'A=2');
    await agentWrites(undo, 'a.txt', 'a1');
    const asked: string[] = [];
    const no = await rewinder.rewind(one, 'files', async (shown) => {
      asked.push(shown);
      return 'skip';
    });
    expect(no.files).toMatchObject({ removed: ['a.txt'], restored: [], protectedKept: ['.env'] });
    expect(describeRewind(no)).toContain('protected, left as they are (you said no): .env');
    expect(await contentOf('.env')).toBe('A=2');
    // Without a way to ask, nothing protected goes back either.
    expect((await rewinder.rewind(one, 'files')).files?.protectedKept).toEqual(['.env']);
    const yes = await rewinder.rewind(one, 'files', async (shown) => {
      asked.push(shown);
      return 'restore';
    });
    expect(yes.files?.restored).toEqual(['.env']);
    expect(await contentOf('.env')).toBe('A=1');
    expect(asked).toEqual(['.env', '.env']);
  });

  it('names the run_shell commands since the point (escaped, cut, five and a count) and the dropped messages', async () => {
    const { conversation, rewinder } = await setup();
    say(conversation, 'one');
    conversation.history.append({
      role: 'assistant',
      text: '',
      toolCalls: [{ id: 'c0', name: 'run_shell', arguments: JSON.stringify({ command: 'make before' }) }],
    });
    const two = say(conversation, 'two');
    const shell = (command: string, id: string) => ({
      id,
      name: 'run_shell',
      arguments: JSON.stringify({ command }),
    });
    conversation.history.append({
      role: 'assistant',
      text: '',
      toolCalls: [
        shell(`echo \u001b[2J ${'abcdefghi '.repeat(12)}`, 'c1'),
        { id: 'c2', name: 'write', arguments: '{"path":"a","content":"b"}' },
        { id: 'c3', name: 'run_shell', arguments: 'not json' },
      ],
    });
    const three = say(conversation, 'three');
    conversation.history.append({
      role: 'assistant',
      text: '',
      toolCalls: ['b', 'c', 'd', 'e', 'f'].map((name, i) => shell(`touch ${name}`, `d${i}`)),
    });
    const result = await rewinder.rewind(two, 'conversation');
    expect(result.droppedIds).toEqual([two, three]);
    expect(result.commands).toHaveLength(6);
    const line = describeRewind(result).split('\n').at(-1)!;
    expect(line).toMatch(
      /^not undone: 6 commands run since then \(rewind restores only files the agent wrote\): `echo \^\[\[2J (abcdefghi ){6}abcdefgh…`, `touch b`, `touch c`, `touch d`, `touch e` and 1 more$/,
    );
    expect(line).not.toContain('\u001b');
    expect(line).not.toContain('make before');
    // No command: no such line.
    const { conversation: quiet, rewinder: quietRewinder } = await setup();
    const only = say(quiet, 'only');
    expect(describeRewind(await quietRewinder.rewind(only, 'both'))).not.toContain('not undone');
  });

  it('a file deleted since is reported, not written back', async () => {
    const { conversation, undo, rewinder } = await setup();
    await writeFile(path.join(root, 'a.txt'), 'before');
    const one = say(conversation, 'one');
    await agentWrites(undo, 'a.txt', 'after');
    await rm(path.join(root, 'a.txt'));
    const result = await rewinder.rewind(one, 'files');
    expect(result.files?.changed).toEqual(['a.txt (deleted since the agent wrote it)']);
    expect(await contentOf('a.txt')).toBeNull();
  });

  it('counts the turns an earlier conversation-only rewind dropped by when they were sent', async () => {
    const { conversation, undo, rewinder } = await setup();
    const one = say(conversation, 'one');
    await agentWrites(undo, 'a.txt', 'a1');
    const two = say(conversation, 'two');
    await agentWrites(undo, 'b.txt', 'b1');
    await rewinder.rewind(two, 'conversation');
    expect(await contentOf('b.txt')).toBe('b1');
    const three = say(conversation, 'three');
    // Turn two came before three: going back to before three leaves b.txt.
    expect((await rewinder.rewind(three, 'files')).files?.removed).toEqual([]);
    expect(await contentOf('b.txt')).toBe('b1');
    // …but going back to before one takes back two's writes as well.
    const result = await rewinder.rewind(one, 'files');
    expect(result.files?.removed.sort()).toEqual(['a.txt', 'b.txt']);
  });

  it("never touches another session's entries or untagged ones (mcp serve, an older log)", async () => {
    const other = await setup();
    say(other.conversation, 'elsewhere');
    await agentWrites(other.undo, 'other.txt', 'theirs');
    const mine = await setup();
    // Untagged: a write recorded without a turn.
    await mine.undo.record(path.join(root, 'plain.txt'), null, 'plain');
    await writeFile(path.join(root, 'plain.txt'), 'plain');
    const one = say(mine.conversation, 'one');
    await agentWrites(mine.undo, 'mine.txt', 'mine');
    const result = await mine.rewinder.rewind(one, 'files');
    expect(result.files?.removed).toEqual(['mine.txt']);
    expect(await contentOf('other.txt')).toBe('theirs');
    expect(await contentOf('plain.txt')).toBe('plain');
  });

  it('the session file keeps the rewound messages and a rewind record; replay and resume go back', async () => {
    const { conversation, sessions, undo } = await setup();
    const one = say(conversation, 'one');
    const two = say(conversation, 'two');
    await agentWrites(undo, 'a.txt', 'a');
    conversation.history.rewindTo(two);
    say(conversation, 'two again');
    const id = sessions.currentId;
    await sessions.close();
    open.splice(open.indexOf(sessions), 1);

    const text = await readFile(path.join(sessionsDir(userDir, root), `${id}.jsonl`), 'utf8');
    expect(text).toContain('"text":"two"');
    expect(text).toContain(`"type":"rewind","to":"${two}"`);
    const replayed = replay(text);
    expect(replayed.state.messages.filter((m) => m.role === 'user').map((m) => m.text)).toEqual([
      'one',
      'two again',
    ]);
    expect(replayed.turns).toBe(2);
    expect(replayed.userOrder.slice(0, 2)).toEqual([one, two]);

    // Resumed: the rewound turn's writes still count as later than `one`.
    const resumed = await setup(undefined, { kind: 'resume', id });
    expect((await resumed.rewinder.rewind(one, 'files')).files?.removed).toEqual(['a.txt']);
  });
});
