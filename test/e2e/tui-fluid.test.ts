/**
 * The TUI with thinking models and huge output (issue 19), end to end in a real pty: a 5,000-line
 * bracketed paste arrives as one input, reasoning streams into a collapsed block that Ctrl+O
 * expands, a 1 MB answer renders with the input still usable, Ctrl+C stops a huge stream at once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { createProject, type Project } from './harness.js';
import { KEYS, type PtyOptions, type PtySession, spawnTui } from './pty.js';

let project: Project;
let fake: FakeModel;
const sessions: PtySession[] = [];

beforeEach(async () => {
  project = await createProject();
  fake = await startFakeModel();
});

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.dispose()));
  await fake.close();
  await project.cleanup();
});

function start(options: Partial<PtyOptions> = {}): PtySession {
  const session = spawnTui({ project, modelUrl: fake.url, ...options });
  sessions.push(session);
  return session;
}

const inputLine = (tui: PtySession) => tui.screen().trimEnd().split('\n').pop() ?? '';
const lastUserText = () => {
  const messages = fake.requests.at(-1)?.body.messages ?? [];
  return messages.filter((m) => m.role === 'user').at(-1)?.content;
};

describe('the TUI stays fluid', () => {
  it('takes a bracketed paste of 5,000 lines as one input, sent intact on Enter', async () => {
    fake.push({ text: 'Got it.' });
    const tui = start();
    await tui.waitFor('Type /help');
    const lines = Array.from({ length: 5000 }, (_, i) => `pasted line ${i}`).join('\n');
    tui.send(`\u001b[200~${lines}\u001b[201~`);
    await tui.waitFor('pasted line 4999');
    tui.send(KEYS.enter);
    await tui.waitFor('Got it.');
    expect(fake.requests).toHaveLength(1);
    expect(lastUserText()).toBe(lines);
    expect(inputLine(tui)).toMatch(/^›/);
  });
});
