/**
 * The TUI session against a real app (createApp on a temp project) and the fake model: a turn's
 * lines, questions answered from the keyboard, cancelling, typing ahead, commands without a model.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app/create-app.js';
import { ProcessGroupTracker } from '../../../src/process/group-tracker.js';
import { trustedForRun } from '../../../src/trust/decide.js';
import { TuiApprover } from '../../../src/tui/approver.js';
import { InputHistory } from '../../../src/tui/history.js';
import { TuiSession } from '../../../src/tui/session.js';
import type { Entry } from '../../../src/tui/types.js';
import { type FakeModel, startFakeModel } from '../../fixtures/fake-model.js';
import { untilEvent } from '../../helpers/wait.js';

let fake: FakeModel;
let base: string;
const cleanups: Array<() => Promise<void> | void> = [];

beforeEach(async () => {
  fake = await startFakeModel();
  base = await mkdtemp(path.join(os.tmpdir(), 'geekagent-tui-session-'));
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await fake.close();
  await rm(base, { recursive: true, force: true });
});

async function session(
  env: Record<string, string> = { OPENAI_API_KEY: 'k' },
  servers?: Record<string, unknown>,
) {
  if (servers) {
    await mkdir(path.join(base, '.geekagent'), { recursive: true });
    await writeFile(path.join(base, '.geekagent', 'mcp.json'), JSON.stringify({ mcpServers: servers }));
  }
  const tracker = new ProcessGroupTracker({ reaper: false });
  const approver = new TuiApprover();
  // Sandbox off: not this test's subject (the env has no PATH, so it would open with its notice).
  const app = await createApp({
    cwd: base,
    homeDir: path.join(base, 'home'),
    trust: trustedForRun(base),
    env: {
      OPENAI_BASE_URL: fake.url,
      OPENAI_MODEL: 'fake',
      GEEKAGENT_MAX_RETRIES: '0',
      GEEKAGENT_SANDBOX: 'off',
      ...env,
    },
    approver,
    tracker,
  });
  const tui = new TuiSession({
    app,
    approver,
    history: new InputHistory(undefined),
  });
  tui.start();
  cleanups.push(async () => {
    tui.dispose();
    await app.shutdown();
    tracker.dispose();
  });
  const lines = () => tui.snapshot().entries.map(entryLine);
  // Re-checked on each change of the session's view: a busy machine makes it later, never failing.
  const until = (check: () => void) => untilEvent(tui.subscribe, check);
  return { tui, lines, until };
}

const mcpRow = (tui: TuiSession) => tui.snapshot().panel.rows.find((row) => row.label === 'MCP')?.value;

function entryLine(entry: Entry): string {
  return entry.kind === 'question'
    ? `question:${entry.request.toolName}:${entry.answer}`
    : `${entry.kind}:${entry.text}`;
}

const write = (file: string) => ({
  name: 'write',
  arguments: JSON.stringify({ path: file, content: 'hi\n' }),
});

describe('TuiSession', () => {
  it('greets, then shows the user line, the streamed answer and token use', async () => {
    const { tui, lines, until } = await session();
    fake.push({ text: 'Hello **there**.', usage: { prompt_tokens: 40, completion_tokens: 5 } });
    tui.submit('hi');
    await until(() => expect(lines()).toContain('model:Hello **there**.'));
    expect(lines().slice(0, 3)).toEqual([
      'title:GeekAgent — MCP-first terminal agent',
      'system:Type /help for commands. Servers in .geekagent/mcp.json connect automatically; /mcp shows them.',
      'user:hi',
    ]);
    await until(() => expect(tui.snapshot().busy).toBe(false));
    expect(tui.snapshot().panel).toMatchObject({
      contextTokens: 40,
      turnTokens: 45,
      totalTokens: 45,
    });
    expect(mcpRow(tui)).toBe('none');
  });

  it('follows MCP status live, and the first request waits for a server within the start-up grace', async () => {
    const demo = path.resolve('examples', 'demo-server.mjs');
    // A grace longer than any start here: this test is about the wait, not about its end (issue 45).
    const { tui, lines, until } = await session(
      { OPENAI_API_KEY: 'k', GEEKAGENT_MCP_START_GRACE_MS: '120000' },
      { demo: { command: process.execPath, args: [demo] } },
    );
    expect(mcpRow(tui)).toBe('demo(connecting)');
    fake.push({ text: 'Tools ready.' });
    tui.submit('go');
    await until(() => expect(lines()).toContain('model:Tools ready.'));
    expect(mcpRow(tui)).toBe('demo(2)');
    // Ordered by what the model saw, not by a clock: the request went out once the server was up.
    const tools = fake.requests[0]!.body.tools?.map((tool) => (tool.function as { name: string }).name);
    expect(tools).toEqual(expect.arrayContaining(['mcp_demo_word_count', 'mcp_demo_dice']));
  });

  it('asks before a write, records the answer, and runs the tool on y', async () => {
    const { tui, lines, until } = await session();
    fake.push({ toolCalls: [write('a.txt')] }, { text: 'Written.' });
    tui.submit('write a file');
    await until(() => expect(tui.snapshot().question?.toolName).toBe('write'));
    tui.answer('yes', tui.snapshot().question!);
    await until(() => expect(lines()).toContain('model:Written.'));
    expect(lines()).toContain('question:write:yes');
    expect(lines().some((line) => line.startsWith('tool:[Calling tool write →'))).toBe(true);
    expect(existsSync(path.join(base, 'a.txt'))).toBe(true);
  });

  it('Esc with a question open answers no and cancels the turn; the next message works', async () => {
    const { tui, lines, until } = await session();
    fake.push({ toolCalls: [write('b.txt')] }, { text: 'After the cancel.' });
    tui.submit('write');
    await until(() => expect(tui.snapshot().question).toBeDefined());
    tui.cancel();
    await until(() => expect(lines()).toContain('system:cancelled'));
    expect(lines()).toContain('question:write:no');
    expect(existsSync(path.join(base, 'b.txt'))).toBe(false);
    tui.submit('again');
    await until(() => expect(lines()).toContain('model:After the cancel.'));
  });

  it('queues a message sent while a turn runs, and sends it when the turn ends', async () => {
    const { tui, lines, until } = await session();
    fake.push({ kind: 'hang' }, { text: 'Queued one answered.' });
    tui.submit('first');
    await fake.waitForRequests(1);
    tui.submit('second');
    expect(tui.snapshot().queued).toEqual(['second']);
    tui.interrupt(); // Ctrl+C while busy cancels, it does not exit
    await until(() => expect(lines()).toContain('model:Queued one answered.'));
    expect(lines().filter((line) => line.startsWith('user:'))).toEqual(['user:first', 'user:second']);
    expect(tui.snapshot().queued).toEqual([]);
  });

  it('without an API key: says so for a message, still runs commands', async () => {
    const { tui, lines, until } = await session({});
    expect(tui.snapshot().panel.model).toBeUndefined();
    tui.submit('hello');
    await until(() => expect(lines().at(-1)).toMatch(/^error:OPENAI_API_KEY is not set/));
    tui.submit('/mcp');
    await until(() => expect(lines().at(-1)).toMatch(/^system:\(no MCP servers configured/));
    tui.submit('/bogus');
    await until(() => expect(lines().at(-1)).toBe('error:unknown command: /bogus (type /help for the list)'));
    expect(fake.requests).toHaveLength(0);
  });

  it('shows a provider failure as an error line', async () => {
    const { tui, lines, until } = await session();
    fake.push({ kind: 'http_error', status: 401, message: 'invalid key' });
    tui.submit('hi');
    await until(() =>
      expect(lines().some((line) => line.startsWith('error:') && line.includes('invalid key'))).toBe(true),
    );
    expect(tui.snapshot().busy).toBe(false);
  });

  it('/exit and Ctrl+C when idle end the session', async () => {
    const first = await session();
    first.tui.submit('/exit');
    await expect(first.tui.exited).resolves.toBeUndefined();
    const second = await session();
    second.tui.interrupt();
    await expect(second.tui.exited).resolves.toBeUndefined();
  });

  it('shows a line when the context is compacted, and the panel’s context drops', async () => {
    const { tui, lines, until } = await session({ OPENAI_API_KEY: 'k', GEEKAGENT_CONTEXT_WINDOW: '4000' });
    fake.push({ text: 'noted', usage: { prompt_tokens: 3_500, completion_tokens: 5 } });
    tui.submit(`remember this ${'r'.repeat(8_000)}`);
    await until(() => expect(lines()).toContain('model:noted'));
    await until(() => expect(tui.snapshot().panel.contextTokens).toBe(3_500));
    fake.push({ text: 'the summary' }, { text: 'ok', usage: { prompt_tokens: 900, completion_tokens: 1 } });
    tui.submit('next');
    await until(() => expect(lines()).toContain('model:ok'));
    expect(
      lines().some((line) => /^system:context compacted: 2 earlier messages summarised/.test(line)),
    ).toBe(true);
    expect(tui.snapshot().panel.contextTokens).toBe(900);
  });
});
