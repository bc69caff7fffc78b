/**
 * Server-to-client requests in the TUI, with server-everything over stdio: an elicitation form
 * filled in and accepted (defaults prefilled), a sampling request approved and answered by the
 * fixture model, a prompt command, and a resource mention.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { createProject, type Project, REPO_ROOT } from './harness.js';
import { KEYS, type PtySession, spawnTui } from './pty.js';

const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let project: Project;
let fake: FakeModel;
let tui: PtySession | undefined;

beforeEach(async () => {
  project = await createProject();
  fake = await startFakeModel();
  await project.mcpServers({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } });
  await project.tools({ 'mcp_everything_*': 'allow' });
});

afterEach(async () => {
  await tui?.dispose();
  tui = undefined;
  await fake.close();
  await project.cleanup();
});

async function started(): Promise<PtySession> {
  tui = spawnTui({ project, modelUrl: fake.url, cols: 120, rows: 40 });
  await tui.waitFor(/MCP everything\(\d+\)/, 20_000);
  return tui;
}

describe('MCP server requests in the TUI', () => {
  it('fills in and accepts an elicitation form', async () => {
    fake.push(
      { toolCalls: [{ name: 'mcp_everything_trigger-elicitation-request', arguments: '{}' }] },
      (request) => ({
        text: `tool said: ${String(request.body.messages.filter((m) => m.role === 'tool').at(-1)?.content).slice(0, 300)}`,
      }),
    );
    const screen = await started();
    screen.send(`fill the form${KEYS.enter}`);
    await screen.waitFor('MCP server everything asks for input:');
    await screen.waitFor('Please provide inputs for the following fields:');
    // A server's form takes the input line only once focused.
    screen.send('\t');
    await screen.waitFor('Tab back to the input line');
    // The first field (a required string) has no default.
    screen.send(`Ada Lovelace${KEYS.enter}`);
    await screen.waitFor('String: Ada Lovelace');
    // Every other field starts with its default (or empty): Enter through them, one at a time.
    const total = Number(/\[2\/(\d+)\]/.exec(screen.screen())?.[1]);
    expect(total).toBeGreaterThan(2);
    for (let next = 3; next <= total; next++) {
      screen.send(KEYS.enter);
      await screen.waitFor(`[${next}/${total}]`);
    }
    screen.send(KEYS.enter);
    await screen.waitFor('Enter = accept');
    expect(screen.screen()).toContain('String with default: It was a dark and stormy night.');
    screen.send(KEYS.enter);
    await screen.waitFor(/tool said: .*Ada Lovelace/s, 20_000);
  });

  it('asks before sampling, answers with the fixture model and shows the text', async () => {
    fake.push(
      {
        toolCalls: [
          {
            name: 'mcp_everything_trigger-sampling-request',
            arguments: '{"prompt":"a haiku","maxTokens":40}',
          },
        ],
      },
      { text: 'waves fold into foam' },
      { text: 'the server got its answer' },
    );
    const screen = await started();
    screen.send(`sample please${KEYS.enter}`);
    // The question and the prompt below it (waited for together: a frame can arrive in parts).
    await screen.waitUntil(
      (text) =>
        text.includes('MCP server everything asks the model to answer (sampling/createMessage)') &&
        text.includes('a haiku'),
      'the sampling question with its prompt',
    );
    // A server's question is answered by a focused choice: Tab, → to Allow, Enter.
    screen.send('\t');
    await screen.waitFor('[Decline]');
    screen.send(`\u001b[C${KEYS.enter}`);
    await screen.waitFor('[sampling for everything] waves fold into foam');
    await screen.waitFor('the server got its answer', 20_000);
    // The sampling request reached the model as its own conversation.
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain('a haiku');
  });

  it('runs a prompt command and attaches a mentioned resource', async () => {
    fake.push({ text: 'prompt answered' }, { text: 'mention answered' });
    const screen = await started();
    screen.send(`/mcp__everything__args-prompt Lisbon${KEYS.enter}`);
    await screen.waitFor('prompt answered', 20_000);
    expect(JSON.stringify(fake.requests[0]!.body.messages)).toContain('Lisbon');
    screen.send(`explain @everything:demo://resource/static/document/features.md${KEYS.enter}`);
    await screen.waitFor('mention answered', 20_000);
    expect(screen.screen()).toContain('attached @everything:demo://resource/static/document/features.md');
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain('Attached resource @everything:');
  });
});
