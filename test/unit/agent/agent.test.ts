/**
 * The agent loop against the real OpenAI provider and the fake model: concurrency of one round's
 * tool calls, result order, the 30-round cap, rollback on failure, cancellation.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/agent.js';
import { Conversation } from '../../../src/agent/conversation.js';
import type { AgentEvent } from '../../../src/agent/events.js';
import { NO_TURN_POINTS, type RequestScope, type TurnPoints } from '../../../src/agent/turn-points.js';
import { PolicyStore } from '../../../src/permissions/policy.js';
import type {
  ApprovalAnswer,
  ApprovalRequest,
  Approver,
  PolicyLookup,
} from '../../../src/permissions/types.js';
import { createProvider } from '../../../src/providers/registry.js';
import { ToolExecutor } from '../../../src/tools/executor.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { Tool } from '../../../src/tools/types.js';
import { RootSandbox } from '../../../src/workspace/root-sandbox.js';
import {
  type FakeModel,
  type FakeReply,
  type RecordedRequest,
  startFakeModel,
} from '../../fixtures/fake-model.js';

let fake: FakeModel;
let root: string;

beforeEach(async () => {
  fake = await startFakeModel();
  root = await mkdtemp(path.join(os.tmpdir(), 'geekagent-agent-'));
});

afterEach(async () => {
  await fake.close();
  await rm(root, { recursive: true, force: true });
});

class ScriptedApprover implements Approver {
  readonly asked: string[] = [];
  active = 0;
  maxActive = 0;
  constructor(private readonly answer: ApprovalAnswer) {}
  async ask(request: ApprovalRequest): Promise<ApprovalAnswer> {
    this.active++;
    this.maxActive = Math.max(this.maxActive, this.active);
    this.asked.push(request.toolName);
    await new Promise((resolve) => setImmediate(resolve));
    this.active--;
    return this.answer;
  }
  refusalMessage(toolName: string): string {
    return `declined ${toolName}`;
  }
}

function setup(
  tools: Tool[],
  rules: Record<string, 'allow' | 'ask' | 'deny'>,
  approver = new ScriptedApprover('yes'),
  hooks: TurnPoints = NO_TURN_POINTS,
  policyOverride?: (store: PolicyStore) => PolicyLookup,
) {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  const store = new PolicyStore({ layers: [{ label: 'project', rules }] });
  const policies = policyOverride ? policyOverride(store) : store;
  const executor = new ToolExecutor({
    registry,
    policies,
    approver,
    redact: (text) => text,
    context: { sandbox: new RootSandbox(root), undo: { record: async () => undefined }, env: {} },
  });
  const provider = createProvider({
    provider: 'openai',
    keyVariable: 'OPENAI_API_KEY',
    baseURL: fake.url,
    apiKey: 'k',
    model: 'fake',
    contextWindow: 1000,
    maxRetries: 0,
  });
  const conversation = new Conversation();
  const agent = new Agent({ provider, registry, executor, conversation, root, turnPoints: hooks });
  return { agent, conversation, approver };
}

/** A tool that resolves only when `release()` is called: proves calls overlap. */
function gatedTool(name: string) {
  let started = 0;
  let releaseAll: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    releaseAll = resolve;
  });
  const tool: Tool = {
    name,
    description: name,
    parameters: { type: 'object', properties: { id: { type: 'string' } } },
    run: async (args) => {
      started++;
      if (started === 3) releaseAll();
      await gate;
      return `result ${String(args.id)}`;
    },
  };
  return tool;
}

/** A tool that answers `output` at once. */
function echoTool(output = 'ok'): Tool {
  return {
    name: 'echo',
    description: 'echo',
    parameters: { type: 'object', properties: {} },
    run: async () => output,
  };
}

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

describe('Agent.runTurn', () => {
  it('runs one round’s tool calls concurrently and returns results in the model’s order', async () => {
    const { agent, conversation } = setup([gatedTool('slow')], { slow: 'allow' });
    fake.push(
      { toolCalls: [call('slow', { id: 'a' }), call('slow', { id: 'b' }), call('slow', { id: 'c' })] },
      { text: 'done' },
    );
    // If the calls ran one after another, the first would wait for a third start forever.
    const result = await agent.runTurn('go', { signal: new AbortController().signal });
    expect(result.toolCalls.map((c) => c.output)).toEqual(['result a', 'result b', 'result c']);
    const tools = conversation.messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.output)).toEqual(['result a', 'result b', 'result c']);
    expect(result.text).toBe('done');
  });

  it('runs at most 16 calls of a round at once; the rest queue, results stay in order', async () => {
    let active = 0;
    let maxActive = 0;
    const counting: Tool = {
      name: 'count',
      description: 'count',
      parameters: { type: 'object', properties: { id: { type: 'number' } } },
      run: async (args) => {
        active++;
        maxActive = Math.max(maxActive, active);
        // Several turns of the event loop: every call the agent started by now is in flight.
        for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
        active--;
        return `result ${String(args.id)}`;
      },
    };
    const { agent } = setup([counting], { count: 'allow' });
    const ids = Array.from({ length: 40 }, (_, i) => i);
    fake.push({ toolCalls: ids.map((id) => call('count', { id })) }, { text: 'done' });
    const result = await agent.runTurn('go', { signal: new AbortController().signal });
    expect(maxActive).toBe(16);
    expect(result.toolCalls.map((c) => c.output)).toEqual(ids.map((id) => `result ${id}`));
  });

  it('asks approval questions one at a time for parallel calls', async () => {
    const echo = echoTool();
    const { agent, approver } = setup([echo], { echo: 'ask' });
    fake.push({ toolCalls: [call('echo', {}), call('echo', {}), call('echo', {})] }, { text: 'done' });
    const result = await agent.runTurn('go', { signal: new AbortController().signal });
    expect(approver.asked).toHaveLength(3);
    expect(approver.maxActive).toBe(1);
    expect(result.toolCalls.every((c) => c.decision === 'approved')).toBe(true);
  });

  it('stops after 30 tool rounds', async () => {
    const echo = echoTool('again');
    const { agent } = setup([echo], { echo: 'allow' });
    for (let i = 0; i < 31; i++) fake.push({ toolCalls: [call('echo', {})] });
    const result = await agent.runTurn('loop', { signal: new AbortController().signal });
    expect(result.status).toBe('max_rounds');
    expect(result.toolCalls).toHaveLength(30);
    expect(fake.requests).toHaveLength(30);
  });

  it('keeps only complete turns: a failed request rolls the user message back', async () => {
    const { agent, conversation } = setup([], {});
    fake.push({ text: 'first answer' });
    await agent.runTurn('one', { signal: new AbortController().signal });
    expect(conversation.messages).toHaveLength(2);
    fake.push({ kind: 'http_error', status: 503, message: 'busy' });
    await expect(agent.runTurn('two', { signal: new AbortController().signal })).rejects.toThrow(
      'HTTP 503: busy',
    );
    expect(conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('cancels a hanging model stream and leaves history as it was', async () => {
    const { agent, conversation } = setup([], {});
    fake.push({ kind: 'hang', afterText: 'partial' });
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    const turn = agent.runTurn('hi', {
      signal: controller.signal,
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'text') controller.abort();
      },
    });
    await expect(turn).rejects.toMatchObject({ name: 'AbortError' });
    expect(conversation.messages).toHaveLength(0);
  });

  it('reports usage per round and cumulatively', async () => {
    const echo = echoTool();
    const { agent, conversation } = setup([echo], { echo: 'allow' });
    fake.push(
      { toolCalls: [call('echo', {})], usage: { prompt_tokens: 10, completion_tokens: 2 } },
      { text: 'x', usage: { prompt_tokens: 20, completion_tokens: 3 } },
    );
    const usages: AgentEvent[] = [];
    const result = await agent.runTurn('go', {
      signal: new AbortController().signal,
      onEvent: (e) => e.type === 'usage' && usages.push(e),
    });
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 5, totalTokens: 35 });
    expect(usages).toHaveLength(2);
    expect(conversation.totalUsage.totalTokens).toBe(35);
    expect(conversation.contextTokens).toBe(20);
  });

  it('sends a tool round’s reasoning_content back in every later request, as DeepSeek requires', async () => {
    const echo = echoTool();
    const { agent, conversation } = setup([echo], { echo: 'allow' });
    // DeepSeek's thinking mode: a tool-call round without its reasoning_content is a 400.
    const deepseek =
      (answer: string) =>
      (request: RecordedRequest): FakeReply => {
        const rounds = request.body.messages.filter((m) => m.role === 'assistant' && m.tool_calls);
        const missing = rounds.some((m) => m.reasoning_content !== 'I should call echo first.');
        return missing
          ? { kind: 'http_error', status: 400, message: 'The reasoning_content must be passed back' }
          : { text: answer, reasoning: 'Now I can answer.' };
      };
    fake.push(
      { reasoning: 'I should call echo first.', toolCalls: [call('echo', {})], fragmentSize: 4 },
      deepseek('first'),
      deepseek('second'),
    );
    const first = await agent.runTurn('one', { signal: new AbortController().signal });
    expect(first.text).toBe('first');
    const second = await agent.runTurn('two', { signal: new AbortController().signal });
    expect(second.text).toBe('second');
    // A final answer's reasoning is not kept: the API ignores it, it would only cost tokens.
    const answers = conversation.messages.filter((m) => m.role === 'assistant' && !m.toolCalls);
    expect(answers.map((m) => 'reasoning' in m)).toEqual([false, false]);
  });

  it('runs calls with the same exclusive key one after another, other calls alongside', async () => {
    let active = 0;
    let maxActive = 0;
    let maxPerKey = 0;
    const perKey = new Map<string, number>();
    let bStarted: () => void = () => undefined;
    const bGate = new Promise<void>((resolve) => {
      bStarted = resolve;
    });
    const tool: Tool = {
      name: 'edit',
      description: 'edit',
      parameters: { type: 'object', properties: { file: { type: 'string' } } },
      exclusiveKey: (args) => String(args.file),
      run: async (args) => {
        const key = String(args.file);
        active++;
        perKey.set(key, (perKey.get(key) ?? 0) + 1);
        maxActive = Math.max(maxActive, active);
        maxPerKey = Math.max(maxPerKey, perKey.get(key)!);
        // The first `a` finishes only once `b` has started: b runs alongside it, the second `a` may not.
        if (key === 'b') bStarted();
        else await bGate;
        await new Promise((resolve) => setImmediate(resolve));
        perKey.set(key, perKey.get(key)! - 1);
        active--;
        return `edited ${key}`;
      },
    };
    const { agent } = setup([tool], { edit: 'allow' });
    fake.push(
      { toolCalls: [call('edit', { file: 'a' }), call('edit', { file: 'a' }), call('edit', { file: 'b' })] },
      { text: 'done' },
    );
    const result = await agent.runTurn('go', { signal: new AbortController().signal });
    expect(result.toolCalls.map((c) => c.output)).toEqual(['edited a', 'edited a', 'edited b']);
    expect(maxPerKey).toBe(1);
    expect(maxActive).toBe(2);
  });

  it('passes the executor’s notices on as turn events (an "always" that could not be saved)', async () => {
    const { agent } = setup(
      [echoTool()],
      { echo: 'ask' },
      new ScriptedApprover('always'),
      NO_TURN_POINTS,
      (store) => ({
        policyFor: (name) => store.policyFor(name),
        allowAlways: async () => {
          throw new Error('disk full');
        },
      }),
    );
    fake.push({ toolCalls: [call('echo', {})] }, { text: 'done' });
    const events: AgentEvent[] = [];
    await agent.runTurn('go', { signal: new AbortController().signal, onEvent: (e) => events.push(e) });
    expect(events).toContainEqual({ type: 'notice', message: 'could not save "allow" for echo: disk full' });
  });

  it('compacts through the hooks and retries once when the provider says the request is too long', async () => {
    const triggers: RequestScope['trigger'][] = [];
    const hooks: TurnPoints = {
      ...NO_TURN_POINTS,
      beforeRequest: async (request) => {
        triggers.push(request.trigger);
      },
    };
    const { agent } = setup([], {}, undefined, hooks);
    fake.push(
      { kind: 'http_error', status: 400, message: "This model's maximum context length is 10 tokens." },
      { text: 'fits now' },
    );
    const result = await agent.runTurn('go', { signal: new AbortController().signal });
    expect(result.text).toBe('fits now');
    expect(triggers).toEqual(['auto', 'overflow']);
    // A second refusal is not retried again: the turn fails.
    fake.push(
      { kind: 'http_error', status: 400, message: "This model's maximum context length is 10 tokens." },
      { kind: 'http_error', status: 400, message: "This model's maximum context length is 10 tokens." },
    );
    await expect(agent.runTurn('again', { signal: new AbortController().signal })).rejects.toThrow(
      'maximum context length',
    );
  });

  it('gives the hooks a prompt section and an input rewrite, and takes a failed turn back out', async () => {
    const hooks: TurnPoints = {
      ...NO_TURN_POINTS,
      promptSections: async () => [{ order: 10, text: 'Project instructions (AGENTS.md):\nsay hi' }],
      prepareInput: async (input) => `${input} (rewritten)`,
    };
    const { agent, conversation } = setup([], {}, undefined, hooks);
    fake.push({ text: 'ok' }, { kind: 'http_error', status: 503, message: 'busy' });
    await agent.runTurn('one', { signal: new AbortController().signal });
    const sent = fake.requests[0]!.body.messages;
    expect(sent[0]).toMatchObject({ role: 'system' });
    expect(String(sent[0]!.content)).toMatch(
      /^You are GeekAgent[\s\S]*\n\nProject instructions \(AGENTS\.md\):\nsay hi$/,
    );
    expect(sent[1]).toEqual({ role: 'user', content: 'one (rewritten)' });
    await expect(agent.runTurn('two', { signal: new AbortController().signal })).rejects.toThrow('busy');
    expect(conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});
