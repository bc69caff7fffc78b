/**
 * Compaction with the real agent, the real OpenAI provider and the fake model: triggered by the
 * threshold, by GEEKAGENT_MAX_HISTORY, by the provider's overflow answer; pruning before
 * summarising; a tool call never split from its result; the fallback when the summary fails; the
 * stop after three failures in a row; off when GEEKAGENT_AUTO_COMPACT is 0.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import { Compactor } from '../../../src/agent/compaction.js';
import type { CompactionSettings } from '../../../src/agent/compaction-settings.js';
import { Conversation } from '../../../src/agent/conversation.js';
import type { AgentEvent } from '../../../src/agent/events.js';
import { NO_TURN_POINTS } from '../../../src/agent/turn-points.js';
import { PolicyStore } from '../../../src/permissions/policy.js';
import { createProvider } from '../../../src/providers/registry.js';
import { ToolExecutor } from '../../../src/tools/executor.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { Tool } from '../../../src/tools/types.js';
import { RootSandbox } from '../../../src/workspace/root-sandbox.js';
import { type FakeModel, type RecordedRequest, startFakeModel } from '../../fixtures/fake-model.js';

let fake: FakeModel;
let root: string;

beforeEach(async () => {
  fake = await startFakeModel();
  root = await mkdtemp(path.join(os.tmpdir(), 'geekagent-compaction-'));
});

afterEach(async () => {
  await fake.close();
  await rm(root, { recursive: true, force: true });
});

const WINDOW = 2_000;

function setup(settings: Partial<CompactionSettings> = {}, tools: Tool[] = []) {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  const rules = Object.fromEntries(tools.map((tool) => [tool.name, 'allow' as const]));
  const executor = new ToolExecutor({
    registry,
    policies: new PolicyStore({ layers: [{ label: 'project', rules }] }),
    approver: { ask: async () => 'no', refusalMessage: () => 'no' },
    redact: (text) => text,
    context: { sandbox: new RootSandbox(root), undo: { record: async () => undefined }, env: {} },
  });
  const provider = createProvider({
    provider: 'openai',
    keyVariable: 'OPENAI_API_KEY',
    baseURL: fake.url,
    apiKey: 'k',
    model: 'fake',
    contextWindow: WINDOW,
    maxRetries: 0,
  });
  const compactor = new Compactor({
    provider,
    contextWindow: WINDOW,
    settings: { autoPercent: 80, maxHistoryChars: undefined, ...settings },
  });
  const conversation = new Conversation();
  const agent = new Agent({
    provider,
    registry,
    executor,
    conversation,
    root,
    turnPoints: { ...NO_TURN_POINTS, beforeRequest: (request) => compactor.beforeRequest(request) },
  });
  const events: AgentEvent[] = [];
  const turn = (input: string) =>
    agent.runTurn(input, { signal: new AbortController().signal, onEvent: (event) => events.push(event) });
  return { agent, conversation, compactor, events, turn };
}

const isSummaryRequest = (request: RecordedRequest) =>
  String(request.body.messages[0]?.content).startsWith('You compact the conversation');
const requestTokens = (request: RecordedRequest) => Math.ceil(JSON.stringify(request.body).length / 4);
const notices = (events: AgentEvent[]) =>
  events.flatMap((event) => (event.type === 'notice' ? [event.message] : []));

describe('compaction', () => {
  it("a sub-agent's compactor sizes with its own model's window and summarises with its model", async () => {
    const { compactor } = setup();
    const small = createProvider({
      provider: 'openai',
      keyVariable: 'OPENAI_API_KEY',
      baseURL: fake.url,
      apiKey: 'k',
      model: 'small',
      contextWindow: 500,
      maxRetries: 0,
    });
    const child = compactor.fresh({ provider: small, contextWindow: small.contextWindow });
    expect(compactor.threshold).toBe(WINDOW * 0.8);
    expect(child.threshold).toBe(400);
    const conversation = new Conversation();
    conversation.history.append({ role: 'user', text: `Remember alpha. ${'a'.repeat(1_200)}` });
    conversation.history.append({ role: 'assistant', text: `noted ${'n'.repeat(800)}` });
    conversation.history.append({ role: 'user', text: 'and now?' });
    fake.push({ text: '## Goals and constraints\nremember alpha' });
    const outcome = await child.compactNow(conversation, undefined, new AbortController().signal);
    expect(outcome.kind).toBe('compacted');
    expect(fake.requests.at(-1)?.body.model).toBe('small');
  });

  it('summarises older turns before a request that would pass the threshold; the newest stays verbatim', async () => {
    const { turn, events, conversation } = setup();
    // The second answer is long: the third request is the first to pass 80% of the window.
    fake.push({ text: 'first answer' }, { text: `second answer ${'s'.repeat(3_000)}` });
    await turn(`Remember alpha. ${'a'.repeat(2_000)}`);
    await turn(`Remember beta. ${'b'.repeat(2_000)}`);
    expect(fake.requests.some(isSummaryRequest)).toBe(false);
    fake.push({ text: '## Goals and constraints\nremember alpha and beta' }, { text: 'alpha and beta' });
    const result = await turn('What should I remember?');
    expect(result.text).toBe('alpha and beta');

    const [summarise, next] = fake.requests.slice(2);
    expect(isSummaryRequest(summarise!)).toBe(true);
    expect(summarise!.body.tools).toBeUndefined();
    expect(String(summarise!.body.messages[1]!.content)).toContain('User: Remember alpha.');
    expect(String(summarise!.body.messages[0]!.content)).toContain('## Open tasks');
    const sent = next!.body.messages;
    expect(sent.map((m) => m.role)).toEqual(['system', 'system', 'user']);
    expect(String(sent[0]!.content)).toMatch(/^You are GeekAgent/);
    expect(sent[1]!.content).toBe(
      '[Summary of previous conversation]\n## Goals and constraints\nremember alpha and beta',
    );
    expect(sent[2]!.content).toBe('What should I remember?');
    expect(requestTokens(next!)).toBeLessThan(WINDOW);
    const report = events.find((event) => event.type === 'compacted');
    expect(report).toMatchObject({ report: { trigger: 'auto', method: 'summary', messages: 4 } });
    if (report?.type === 'compacted')
      expect(report.report.afterTokens).toBeLessThan(report.report.beforeTokens);
    expect(conversation.contextTokens).toBeLessThan(WINDOW);
  });

  it('never splits a tool call from its result and keeps recent turns whole', async () => {
    const read: Tool = {
      name: 'read',
      description: 'read',
      parameters: { type: 'object', properties: {} },
      run: async () => 'short file',
    };
    const { turn, conversation } = setup({}, [read]);
    fake.push(
      { text: 'ok' },
      { toolCalls: [{ name: 'read', arguments: '{}' }] },
      { text: `read it ${'r'.repeat(600)}` },
    );
    await turn(`old ${'x'.repeat(5_000)}`);
    await turn('read the file');
    expect(fake.requests.some(isSummaryRequest)).toBe(false);
    fake.push({ text: 'summary of the old turn' }, { text: 'done' });
    await turn('and now?');
    // The old turn went into the summary; the turn with the tool round stayed whole.
    const roles = conversation.messages.map((m) => m.role);
    expect(roles).toEqual(['summary', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
    expect(conversation.messages[1]).toMatchObject({ role: 'user', text: 'read the file' });
  });

  it('prunes old tool outputs first, and stops there when that is enough', async () => {
    const dump: Tool = {
      name: 'dump',
      description: 'dump',
      parameters: { type: 'object', properties: {} },
      run: async () => 'z'.repeat(6_000),
    };
    const { turn, events, conversation } = setup({}, [dump]);
    fake.push({ toolCalls: [{ name: 'dump', arguments: '{}' }] }, { text: 'dumped' });
    await turn('dump it');
    fake.push({ text: 'fine' });
    await turn('thanks');
    expect(fake.requests.some(isSummaryRequest)).toBe(false);
    expect(events.find((event) => event.type === 'compacted')).toMatchObject({
      report: { method: 'pruned', messages: 1 },
    });
    const tool = conversation.messages.find((m) => m.role === 'tool');
    expect(tool?.role === 'tool' && String(tool.output)).toMatch(
      /^\[output pruned to save context: 6000 chars/,
    );
  });

  it('drops the oldest turns with a notice when the summary cannot be written', async () => {
    const { turn, events, conversation } = setup();
    fake.push({ text: 'one' }, { text: `two ${'t'.repeat(3_000)}` });
    await turn(`first ${'a'.repeat(2_000)}`);
    await turn(`second ${'b'.repeat(2_000)}`);
    fake.push({ kind: 'http_error', status: 500, message: 'summariser down' }, { text: 'still here' });
    expect((await turn('hello?')).text).toBe('still here');
    expect(notices(events).join('\n')).toContain('could not summarise the conversation');
    expect(conversation.messages[0]).toMatchObject({ role: 'summary' });
    expect(String(conversation.messages[0]?.role === 'summary' && conversation.messages[0].text)).toContain(
      'was dropped',
    );
  });

  it('a summary cut at the output limit is kept and marked cut; a filtered one is no summary', async () => {
    const cut = setup();
    fake.push({ text: 'one' }, { text: `two ${'t'.repeat(3_000)}` });
    await cut.turn(`first ${'a'.repeat(2_000)}`);
    await cut.turn(`second ${'b'.repeat(2_000)}`);
    fake.push({ text: '## Goals and constraints\nremember al', finishReason: 'length' }, { text: 'ok' });
    expect((await cut.turn('hello?')).text).toBe('ok');
    expect(notices(cut.events).join('\n')).toContain(
      "the conversation's summary was cut off: the model reached its output token limit (finish_reason: length)",
    );
    const summary = cut.conversation.messages[0];
    expect(summary?.role === 'summary' && summary.text).toBe(
      "## Goals and constraints\nremember al\n\n(This summary was cut off at the model's output limit: its end is missing.)",
    );

    const filtered = setup();
    fake.push({ text: 'one' }, { text: `two ${'t'.repeat(3_000)}` });
    await filtered.turn(`first ${'a'.repeat(2_000)}`);
    await filtered.turn(`second ${'b'.repeat(2_000)}`);
    fake.push({ text: 'I will not', finishReason: 'content_filter' }, { text: 'ok' });
    expect((await filtered.turn('hello?')).text).toBe('ok');
    expect(notices(filtered.events).join('\n')).toContain(
      'could not summarise the conversation (the model did not finish the summary: the provider’s content filter stopped it',
    );
  });

  it('stops automatic compaction after three failed attempts in a row, with a clear message', async () => {
    const noop: Tool = {
      name: 'noop',
      description: 'noop',
      parameters: { type: 'object', properties: {} },
      run: async () => 'ok',
    };
    const { turn, events } = setup({}, [noop]);
    // A current turn alone larger than the window: nothing can be compacted, each request fails to.
    const call = { toolCalls: [{ name: 'noop', arguments: '{}' }] };
    fake.push(call, call, call, call, { text: 'finally' });
    await turn(`huge ${'h'.repeat(9_000)}`);
    const said = notices(events);
    expect(
      said.filter((n) => n.startsWith('automatic compaction stopped after 3 failed attempts')),
    ).toHaveLength(1);
    expect(said.filter((n) => n.startsWith('could not compact'))).toHaveLength(3);
    expect(fake.requests).toHaveLength(5);
    expect(fake.requests.some(isSummaryRequest)).toBe(false);
  });

  it('compacts and retries once when the provider says the request is too long', async () => {
    const { turn, events } = setup({ autoPercent: 100 });
    fake.push({ text: 'one' });
    await turn(`first ${'a'.repeat(2_000)}`);
    fake.push(
      { kind: 'http_error', status: 400, message: "This model's maximum context length is 2000 tokens." },
      { text: 'summary' },
      { text: 'fits now' },
    );
    expect((await turn('second')).text).toBe('fits now');
    expect(isSummaryRequest(fake.requests[2]!)).toBe(true);
    expect(events.find((event) => event.type === 'compacted')).toMatchObject({
      report: { trigger: 'overflow' },
    });
  });

  it('is off with GEEKAGENT_AUTO_COMPACT=0, and GEEKAGENT_MAX_HISTORY triggers it by characters', async () => {
    const off = setup({ autoPercent: 0 });
    fake.push({ text: 'one' }, { text: 'two' }, { text: 'three' });
    await off.turn(`first ${'a'.repeat(4_000)}`);
    await off.turn(`second ${'b'.repeat(4_000)}`);
    await off.turn('third');
    expect(fake.requests.some(isSummaryRequest)).toBe(false);

    const byChars = setup({ autoPercent: 0, maxHistoryChars: 500 });
    fake.push({ text: 'one' });
    await byChars.turn(`first ${'c'.repeat(600)}`);
    fake.push({ text: 'summary' }, { text: 'two' });
    await byChars.turn('second');
    expect(isSummaryRequest(fake.requests[4]!)).toBe(true);
    expect(byChars.conversation.messages.map((m) => m.role)).toEqual(['summary', 'user', 'assistant']);
  });

  it('/compact compacts now with a focus, whatever the size', async () => {
    const { turn, compactor, conversation } = setup();
    fake.push({ text: 'one' }, { text: 'two' });
    await turn('short one');
    await turn('short two');
    fake.push({ text: 'focused summary' });
    const outcome = await compactor.compactNow(conversation, 'the file names', new AbortController().signal);
    expect(outcome).toMatchObject({
      kind: 'compacted',
      report: { trigger: 'manual', method: 'summary', messages: 4 },
    });
    expect(String(fake.requests[2]!.body.messages[0]!.content)).toContain('focus on: the file names');
    expect(conversation.messages).toEqual([
      expect.objectContaining({ role: 'summary', text: 'focused summary' }),
    ]);
  });
});
