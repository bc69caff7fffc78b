/**
 * A 2026-07-28 server's multi round-trip requests reach the person in the TUI exactly as a 2025
 * server's requests do (the same form, the same sampling question), with the SDK v2 fixture
 * `mrtr.mjs`: a tool call that answers `input_required` opens the form, the answer goes back in
 * the retried call and the tool's result reaches the model; sampling is approved and answered by
 * the fixture model; Esc on a form cancels it and the server says so.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-model.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { KEYS, type PtySession, tuiFixture } from './pty.js';

const MRTR = path.join(REPO_ROOT, 'test', 'fixtures', 'mcp2026', 'mrtr.mjs');
const TAB = '\t';
const RIGHT = '\u001b[C';

const fx = tuiFixture({ cols: 120, rows: 40 });
let methodLog: string;

beforeEach(async () => {
  methodLog = path.join(fx.project.dir, 'methods.log');
  await fx.project.mcpServers({
    m: { command: process.execPath, args: [MRTR], env: { MCP_FIXTURE_LOG: methodLog } },
  });
  await fx.project.tools({ 'mcp_m_*': 'allow' });
});

/** The model's second step: says what the tool answered. */
const sayToolResult = (request: RecordedRequest) => ({
  text: `tool said: ${String(request.body.messages.filter((m) => m.role === 'tool').at(-1)?.content).slice(0, 200)}`,
});

async function started(): Promise<PtySession> {
  const screen = fx.start();
  await screen.waitFor(/MCP m\(\d+\)/, 20_000);
  return screen;
}

describe('a 2026 server asking for input in the TUI', () => {
  it('opens the form, sends the answer back in the retried call, and the tool result reaches the model', async () => {
    fx.fake.push({ toolCalls: [{ name: 'mcp_m_ask_name', arguments: '{}' }] }, sayToolResult);
    const screen = await started();
    screen.send(`ask my name${KEYS.enter}`);
    await screen.waitFor('MCP server m asks for input:');
    await screen.waitFor('What is your name?');
    screen.send(TAB);
    await screen.waitFor('Tab back to the input line');
    // The SDK's own note before each round is not the server's progress: not shown.
    expect(screen.screen()).not.toContain('Fulfilling input required');
    screen.send(`Ada Lovelace${KEYS.enter}`);
    await screen.waitFor('Enter = accept');
    screen.send(KEYS.enter);
    await screen.waitFor('tool said: hello, Ada Lovelace', 20_000);
    // The 2026 way: the call was retried with the answer; no server-to-client request.
    const lines = (await readFile(methodLog, 'utf8')).split('\n');
    expect(lines.filter((line) => line === 'tools/call')).toHaveLength(2);
    expect(lines).not.toContain('elicitation/create');
  });

  it('asks before sampling and answers with the fixture model', async () => {
    fx.fake.push(
      { toolCalls: [{ name: 'mcp_m_ask_sample', arguments: '{"prompt":"a haiku about foam"}' }] },
      { text: 'waves fold into foam' },
      sayToolResult,
    );
    const screen = await started();
    screen.send(`sample please${KEYS.enter}`);
    await screen.waitUntil(
      (text) =>
        text.includes('MCP server m asks the model to answer (sampling/createMessage)') &&
        text.includes('a haiku about foam'),
      'the sampling question with its prompt',
    );
    screen.send(TAB);
    await screen.waitFor('[Decline]');
    screen.send(`${RIGHT}${KEYS.enter}`);
    await screen.waitFor('[sampling for m] waves fold into foam');
    await screen.waitFor('tool said: sampled: waves fold into foam', 20_000);
    expect(JSON.stringify(fx.fake.requests[1]!.body.messages)).toContain('a haiku about foam');
  });

  it('Esc on the form cancels it; the server answers the call with that', async () => {
    fx.fake.push({ toolCalls: [{ name: 'mcp_m_ask_name', arguments: '{}' }] }, sayToolResult);
    const screen = await started();
    screen.send(`ask my name${KEYS.enter}`);
    await screen.waitFor('What is your name?');
    screen.send(TAB);
    await screen.waitFor('Tab back to the input line');
    screen.send(KEYS.escape);
    await screen.waitFor('tool said: cancelled', 20_000);
  });
});
