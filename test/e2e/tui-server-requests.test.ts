/**
 * A server's own requests while the person is typing: a sampling question or an elicitation form
 * that appears in an idle TUI takes no key typed for the input line as its answer. Typing goes on
 * into the input line (Enter sends it as a message); the request is answered only after Tab
 * focuses it — the question with ←/→ and Enter, the form in the input line.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { waitFor } from '../helpers/wait.js';
import { createProject, FIXTURE_SERVERS, type Project } from './harness.js';
import { KEYS, type PtySession, spawnTui } from './pty.js';

let project: Project;
let fake: FakeModel;
let tui: PtySession | undefined;
let resultLog: string;
let pidFile: string;

beforeEach(async () => {
  project = await createProject();
  fake = await startFakeModel();
  resultLog = path.join(project.dir, 'results.log');
  pidFile = path.join(project.dir, 'asker.pid');
  await project.mcpServers({
    asker: {
      command: process.execPath,
      args: [path.join(FIXTURE_SERVERS, 'server-requests.mjs')],
      env: { RESULT_LOG: resultLog, PID_FILE: pidFile },
    },
  });
});

afterEach(async () => {
  await tui?.dispose();
  tui = undefined;
  await fake.close();
  await project.cleanup();
});

const TAB = '\t';
const RIGHT = '\u001b[C';
const read = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};
/** The bottom line of the screen: the input line. */
const inputLine = (screen: PtySession) => screen.screen().trimEnd().split('\n').pop() ?? '';

async function idleWithServer(): Promise<{ screen: PtySession; server: number }> {
  tui = spawnTui({ project, modelUrl: fake.url, cols: 120, rows: 30 });
  await tui.waitFor('MCP asker(1)', 20_000);
  const server = await waitFor(() => Number(read(pidFile)) || undefined, { what: 'the server pid' });
  return { screen: tui, server };
}

describe('a server request in an idle TUI', () => {
  it('sampling: "abc" typed after it appears stays in the input line; Tab, → and Enter allow it', async () => {
    fake.push({ text: 'waves fold into foam' });
    const { screen, server } = await idleWithServer();
    process.kill(server, 'SIGUSR1');
    await screen.waitFor('MCP server asker asks the model to answer (sampling/createMessage)');
    screen.send('a');
    screen.send('b');
    screen.send('c');
    // Every key reached the input line: none was taken as an answer (`a` was "always").
    await screen.waitUntil(
      (text) => /› abc/.test(text.trimEnd().split('\n').pop() ?? ''),
      'the input line › abc',
    );
    expect(screen.screen()).toContain('asks the model to answer');
    expect(screen.screen()).toContain('Tab to answer this request');
    expect(read(resultLog)).toBe('');
    expect(fake.requests).toHaveLength(0);

    screen.send(TAB);
    await screen.waitFor('Answer the request: [Decline]  Allow');
    screen.send(RIGHT);
    await screen.waitFor('Answer the request:  Decline  [Allow]');
    screen.send(KEYS.enter);
    await screen.waitFor('[sampling for asker] waves fold into foam');
    await waitFor(() => read(resultLog).includes('sampling: waves fold into foam'), {
      what: 'the server to get it',
    });
    // The person's own typing is still there.
    await screen.waitUntil(
      (text) => /› abc/.test(text.trimEnd().split('\n').pop() ?? ''),
      'the input line › abc',
    );
    expect(inputLine(screen)).toContain('› abc');
  });

  it('sampling: Enter on the focused choice declines by default', async () => {
    const { screen, server } = await idleWithServer();
    process.kill(server, 'SIGUSR1');
    await screen.waitFor('Tab to answer this request');
    screen.send(TAB);
    await screen.waitFor('[Decline]');
    screen.send(KEYS.enter);
    await waitFor(() => read(resultLog).includes('sampling error:'), {
      what: 'the decline to reach the server',
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('elicitation: typing and Enter send the person’s message; Tab fills the form in', async () => {
    fake.push({ text: 'got your message' });
    const { screen, server } = await idleWithServer();
    process.kill(server, 'SIGUSR2');
    await screen.waitFor('MCP server asker asks for input:');
    screen.send(`hello${KEYS.enter}`);
    await screen.waitFor('got your message', 20_000);
    expect(JSON.stringify(fake.requests[0]!.body.messages)).toContain('hello');
    // The form is still there, below the answer (waited for: a loaded machine draws a frame in parts).
    await screen.waitUntil(
      (text) => text.includes('Name [1/1]') && text.includes('Tab to fill in this form'),
      'the form still waiting below the answer',
    );
    expect(read(resultLog)).toBe('');

    screen.send(TAB);
    await screen.waitFor('Tab back to the input line');
    screen.send(`Ada${KEYS.enter}`);
    await screen.waitFor('Enter = accept');
    screen.send(KEYS.enter);
    await waitFor(() => read(resultLog).includes('elicitation: accept {"name":"Ada"}'), {
      what: 'the form to reach the server',
    });
  });
});
