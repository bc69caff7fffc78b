/**
 * One session across every provider, in print mode: Chat Completions, then Claude, Gemini and
 * Responses (each through a models.json name), then Claude again and Chat Completions again. Each
 * fake refuses what its real API refuses, so the session only gets through if every provider sends
 * the others' turns in its own shape (tool calls answered, roles alternating) and its own native
 * state (thinking signatures, thought signatures, reasoning items) back unchanged, and leaves the
 * others' out.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_ANTHROPIC_KEY, type FakeAnthropic, startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { type FakeGemini, startFakeGemini } from '../fixtures/fake-gemini.js';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { type FakeResponses, startFakeResponses } from '../fixtures/fake-responses.js';
import { createProject, type Project, parseJsonOutput, runCli } from './harness.js';

let project: Project;
let chat: FakeModel;
let claude: FakeAnthropic;
let gemini: FakeGemini;
let responses: FakeResponses;

beforeEach(async () => {
  project = await createProject();
  [chat, claude, gemini, responses] = await Promise.all([
    startFakeModel(),
    startFakeAnthropic(),
    startFakeGemini(),
    startFakeResponses(),
  ]);
  const home = path.join(project.home, '.geekagent');
  await mkdir(home, { recursive: true });
  await writeFile(
    path.join(home, 'models.json'),
    JSON.stringify({
      models: {
        // Each fake is another server than the provider's own: the key's variable is named.
        claude: {
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          baseURL: claude.url,
          keyVariable: 'ANTHROPIC_API_KEY',
        },
        gem: {
          provider: 'gemini',
          model: 'gemini-3-pro-preview',
          baseURL: gemini.url,
          keyVariable: 'GEMINI_API_KEY',
        },
        resp: {
          provider: 'openai-responses',
          model: 'gpt-5-mini',
          baseURL: responses.url,
          keyVariable: 'OPENAI_API_KEY',
        },
      },
    }),
  );
  await project.write('notes.txt', 'the notes');
});
afterEach(async () => {
  await Promise.all([chat.close(), claude.close(), gemini.close(), responses.close()]);
  await project.cleanup();
});

const run = (args: string[]) =>
  runCli(['-p', ...args, '--allow', 'read', '--output-format', 'json'], {
    project,
    modelUrl: chat.url,
    env: { ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY, GEMINI_API_KEY: 'test-key' },
  });

const readNotes = (id: string) => [{ id, name: 'read', arguments: '{"path":"notes.txt"}' }];

async function turn(args: string[], answer: string): Promise<void> {
  const result = await run(args);
  expect(result.code, result.stderr).toBe(0);
  expect((parseJsonOutput(result) as unknown as { result: string }).result).toBe(answer);
}

const refusals = () => [
  ...claude.requests.flatMap((request) => (request.rejected ? [`anthropic: ${request.rejected}`] : [])),
  ...gemini.requests.flatMap((request) => (request.refused ? [`gemini: ${request.refused}`] : [])),
  ...responses.requests.flatMap((request) =>
    request.rejected ? [`responses: ${request.rejected.message}`] : [],
  ),
];

describe('switching provider in the middle of a session', () => {
  it('goes Chat → Claude → Gemini → Responses → Claude → Chat with every tool round and signature intact', async () => {
    chat.push({ toolCalls: readNotes('call_chat') }, { text: 'chat read them' });
    await turn(['first'], 'chat read them');

    claude.push(
      {
        reasoning: 'Claude reads the notes.',
        toolCalls: [{ name: 'read', arguments: '{"path":"notes.txt"}' }],
      },
      { reasoning: 'Done.', text: 'claude read them' },
    );
    await turn(['second', '-c', '--model', 'claude'], 'claude read them');

    gemini.push(
      { reasoning: 'Gemini reads too.', toolCalls: [{ name: 'read', arguments: '{"path":"notes.txt"}' }] },
      { text: 'gemini read them' },
    );
    await turn(['third', '-c', '--model', 'gem'], 'gemini read them');

    responses.push(
      { reasoning: 'Responses reads.', toolCalls: [{ name: 'read', arguments: '{"path":"notes.txt"}' }] },
      { text: 'responses read them' },
    );
    await turn(['fourth', '-c', '--model', 'resp'], 'responses read them');

    claude.push({ reasoning: 'All four read.', text: 'claude again' });
    await turn(['fifth', '-c', '--model', 'claude'], 'claude again');

    chat.push({ text: 'chat again' });
    await turn(['sixth', '-c', '--provider', 'openai', '--model', 'fake-model'], 'chat again');

    expect(refusals()).toEqual([]);

    // Claude's last request: its own thinking from the second turn went back signed and unchanged,
    // the other providers' tool rounds as tool_use/tool_result pairs, nobody else's native state.
    const last = claude.requests.at(-1)!.body.messages as Array<{
      role: string;
      content: Array<Record<string, unknown>>;
    }>;
    const blocks = last.flatMap((message) => message.content);
    const thinking = blocks.filter((block) => block.type === 'thinking');
    expect(thinking.map((block) => block.thinking)).toContain('Claude reads the notes.');
    expect(blocks.filter((block) => block.type === 'tool_use')).toHaveLength(4);
    expect(blocks.filter((block) => block.type === 'tool_result')).toHaveLength(4);
    expect(JSON.stringify(last)).not.toMatch(/Gemini reads too|encrypted_content|thoughtSignature/);

    // Chat Completions at the end: the whole history in its own shape, no native state.
    const messages = chat.requests.at(-1)!.body.messages;
    expect(messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual([
      'first',
      'second',
      'third',
      'fourth',
      'fifth',
      'sixth',
    ]);
    const calls = messages.flatMap((message) => (message.tool_calls as Array<{ id: string }>) ?? []);
    const answered = messages
      .filter((message) => message.role === 'tool')
      .map((message) => message.tool_call_id);
    expect(calls).toHaveLength(4);
    expect(answered).toEqual(calls.map((call) => call.id));
    // Nor another API's thinking as DeepSeek's reasoning_content.
    expect(JSON.stringify(messages)).not.toMatch(/signature|encrypted_content|native|reasoning_content/);
  });
});
