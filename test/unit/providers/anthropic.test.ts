/**
 * The Anthropic provider's pure parts (message conversion, tool schema rules, cache breakpoints,
 * reply limits) and the provider itself against the fake Messages API, including what the fake
 * refuses as the real API does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelSettings } from '../../../src/config/model-settings.js';
import { markBreakpoints } from '../../../src/providers/anthropic/cache.js';
import { replyLimits } from '../../../src/providers/anthropic/limits.js';
import { CONTINUED, toAnthropicConversation } from '../../../src/providers/anthropic/messages.js';
import { buildParams } from '../../../src/providers/anthropic/request.js';
import { convertTool, toAnthropicTools } from '../../../src/providers/anthropic/schema.js';
import type { Message } from '../../../src/providers/messages.js';
import { createProvider } from '../../../src/providers/registry.js';
import { type ChatRequest, ContextOverflowError } from '../../../src/providers/types.js';
import {
  type AnthropicStep,
  FAKE_ANTHROPIC_KEY,
  type FakeAnthropic,
  startFakeAnthropic,
} from '../../fixtures/fake-anthropic.js';

const PNG = Buffer.from('png bytes').toString('base64');
const call = (id: string, args = '{}') => ({ id, name: 'read', arguments: args });

describe('messages as Anthropic turns', () => {
  it('system on top, tool results in one user turn, summary merged, thinking first and only its own', () => {
    const thinking = [{ type: 'thinking', thinking: 'plan', signature: 'sig' }];
    const messages: Message[] = [
      { role: 'system', text: 'be brief' },
      { role: 'summary', text: 'earlier work' },
      { role: 'user', text: 'go', context: 'recalled note' },
      {
        role: 'assistant',
        text: '',
        toolCalls: [call('a', '{"path":"x"}'), call('b')],
        native: { provider: 'anthropic', data: thinking },
      },
      { role: 'tool', callId: 'a', name: 'read', output: 'A' },
      { role: 'tool', callId: 'b', name: 'read', output: 'B', isError: true },
      {
        role: 'assistant',
        text: 'done',
        native: { provider: 'openai-responses', data: [{ type: 'reasoning' }] },
      },
      { role: 'user', text: 'next' },
    ];
    const { system, messages: turns } = toAnthropicConversation(messages, true);
    expect(system).toEqual([{ type: 'text', text: 'be brief' }]);
    expect(turns.map((turn) => turn.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(turns[0]?.content).toEqual([
      { type: 'text', text: '[Summary of previous conversation]\nearlier work' },
      { type: 'text', text: 'recalled note\n\ngo' },
    ]);
    expect(turns[1]?.content).toEqual([
      thinking[0],
      { type: 'tool_use', id: 'a', name: 'read', input: { path: 'x' } },
      { type: 'tool_use', id: 'b', name: 'read', input: {} },
    ]);
    expect(turns[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: 'A' },
      { type: 'tool_result', tool_use_id: 'b', content: 'B', is_error: true },
    ]);
    // Another provider's native state is not sent.
    expect(turns[3]?.content).toEqual([{ type: 'text', text: 'done' }]);
  });

  it('images inside the tool_result when the model sees, placeholders when not', () => {
    const messages: Message[] = [
      { role: 'user', text: 'shot' },
      { role: 'assistant', text: '', toolCalls: [call('s')] },
      {
        role: 'tool',
        callId: 's',
        name: 'shot',
        output: [
          { type: 'text', text: 'here' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
          { type: 'image', data: PNG, mimeType: 'image/tiff' },
        ],
      },
    ];
    const seeing = toAnthropicConversation(messages, true).messages[2]?.content as unknown as Array<
      Record<string, unknown>
    >;
    expect(seeing[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 's',
      content: [
        { type: 'text', text: 'here' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        { type: 'text', text: expect.stringMatching(/^\[image: image\/tiff/) },
      ],
    });
    const blind = toAnthropicConversation(messages, false).messages[2]?.content as unknown as Array<
      Record<string, unknown>
    >;
    expect(blind[0]?.content).toMatch(/^here\n\[image: image\/png/);
  });

  it('repairs a cut history: first turn a user one, unanswered calls answered, stray results as text', () => {
    const messages: Message[] = [
      { role: 'assistant', text: 'hello', toolCalls: [call('x')] },
      { role: 'tool', callId: 'y', name: 'read', output: 'stray' },
      { role: 'user', text: 'again' },
    ];
    const turns = toAnthropicConversation(messages, false).messages;
    expect(turns.map((turn) => turn.role)).toEqual(['user', 'assistant', 'user']);
    expect(turns[0]?.content).toEqual([{ type: 'text', text: CONTINUED }]);
    expect(turns[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'x', content: 'no result was recorded', is_error: true },
      { type: 'text', text: '(a tool result that answers no call: stray)' },
      { type: 'text', text: 'again' },
    ]);
  });
});

describe('tool schemas for Anthropic', () => {
  const tool = (parameters: Record<string, unknown>, name = 'fine') => ({
    name,
    description: 'd',
    parameters,
  });

  it('keeps valid schemas, rewrites tuple items, refuses what the API refuses', () => {
    expect(convertTool(tool({ type: 'object', properties: { q: { type: 'string' } } }))).toEqual({
      name: 'fine',
      description: 'd',
      input_schema: { type: 'object', properties: { q: { type: 'string' } } },
    });
    const tuple = convertTool(
      tool({ type: 'object', properties: { p: { type: 'array', items: [{ type: 'string' }] } } }),
    );
    expect(tuple).toMatchObject({
      input_schema: { properties: { p: { prefixItems: [{ type: 'string' }] } } },
    });
    expect(convertTool(tool({ type: 'string' }))).toMatch(/type "object"/);
    expect(convertTool(tool({ type: 'object', anyOf: [{}] }))).toMatch(/"anyOf" at the top/);
    expect(convertTool(tool({ type: 'object', properties: { q: { type: 'text' } } }))).toMatch(
      /properties\.q\.type/,
    );
    expect(convertTool(tool({ type: 'object', properties: { q: { minLength: -1 } } }))).toMatch(/minLength/);
    expect(convertTool(tool({ type: 'object' }, 'has space'))).toMatch(/pattern/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100; i++) deep = { type: 'object', properties: { d: deep } };
    expect(convertTool(tool(deep))).toMatch(/nested more than/);
  });

  it('drops only the tool that cannot be sent and keeps the index of the rest', () => {
    const converted = toAnthropicTools([
      tool({ type: 'object' }, 'a'),
      {
        ...tool({ type: 'object', properties: { q: { type: 7 } } }, 'b'),
        origin: { server: 's', tool: 'b' },
      },
      tool({ type: 'object' }, 'c'),
    ]);
    expect(converted.tools.map((t) => t.name)).toEqual(['a', 'c']);
    expect(converted.sources.map((t) => t.name)).toEqual(['a', 'c']);
    expect(converted.dropped.map((d) => d.tool.origin)).toEqual([{ server: 's', tool: 'b' }]);
  });
});

describe('cache breakpoints and reply limits', () => {
  it('marks the last tool, the last system block and the last two user turns: never more than four', () => {
    const messages: Message[] = [
      { role: 'system', text: 'sys' },
      { role: 'user', text: 'one' },
      { role: 'assistant', text: 'two' },
      { role: 'user', text: 'three' },
      { role: 'assistant', text: 'four' },
      { role: 'user', text: 'five' },
    ];
    const tools = toAnthropicTools([{ name: 't', description: '', parameters: { type: 'object' } }]).tools;
    const params = buildParams(messages, tools, 'claude-sonnet-4-5', false, undefined);
    const json = JSON.stringify(params);
    expect(json.match(/cache_control/g)).toHaveLength(4);
    expect(params.tools?.[0]).toMatchObject({ cache_control: { type: 'ephemeral' } });
    expect(params.messages.at(-1)?.content).toEqual([
      { type: 'text', text: 'five', cache_control: { type: 'ephemeral' } },
    ]);
    expect(params.messages.at(-3)?.content).toEqual([
      { type: 'text', text: 'three', cache_control: { type: 'ephemeral' } },
    ]);
    expect(params.messages[0]?.content).toEqual([{ type: 'text', text: 'one' }]);
    expect(markBreakpoints({ tools: [], system: [], messages: [] })).toBe(0);
  });

  it('thinks on Claude 3.7 and later with budget < max_tokens; off by setting, for older models and for a loop begun without thinking', () => {
    expect(replyLimits('claude-sonnet-4-5', undefined)).toEqual({
      maxTokens: 26_000,
      thinkingBudget: 10_000,
    });
    const opus = replyLimits('claude-opus-4-1', 100_000);
    expect(opus.maxTokens).toBe(32_000);
    expect(opus.thinkingBudget).toBeLessThan(32_000);
    expect(replyLimits('claude-sonnet-4-5', 10).thinkingBudget).toBe(1_024);
    expect(replyLimits('claude-sonnet-4-5', 0)).toEqual({ maxTokens: 16_000 });
    expect(replyLimits('claude-3-5-haiku-latest', undefined)).toEqual({ maxTokens: 8_192 });
    expect(replyLimits('claude-3-7-sonnet-latest', undefined).thinkingBudget).toBe(10_000);
    const loop: Message[] = [
      { role: 'user', text: 'go' },
      { role: 'assistant', text: '', toolCalls: [call('a')] },
      { role: 'tool', callId: 'a', name: 'read', output: 'A' },
    ];
    expect(buildParams(loop, [], 'claude-sonnet-4-5', false, undefined).thinking).toBeUndefined();
    expect(buildParams(loop.slice(0, 1), [], 'claude-sonnet-4-5', false, undefined).thinking).toEqual({
      type: 'enabled',
      budget_tokens: 10_000,
    });
  });
});

describe('the provider against the fake Messages API', () => {
  const fakes: FakeAnthropic[] = [];
  afterEach(async () => {
    await Promise.all(fakes.splice(0).map((fake) => fake.close()));
  });
  const start = async (steps: AnthropicStep[]) => {
    const fake = await startFakeAnthropic(steps);
    fakes.push(fake);
    return fake;
  };
  const provider = (fake: FakeAnthropic, overrides: Partial<ModelSettings> = {}) =>
    createProvider({
      provider: 'anthropic',
      keyVariable: 'ANTHROPIC_API_KEY',
      baseURL: fake.url,
      apiKey: FAKE_ANTHROPIC_KEY,
      model: 'claude-sonnet-4-5',
      contextWindow: 200_000,
      maxRetries: 0,
      ...overrides,
    });
  const request = (messages: Message[], extra: Partial<ChatRequest> = {}): ChatRequest => ({
    messages,
    tools: [],
    signal: new AbortController().signal,
    ...extra,
  });

  it('streams thinking, text and parallel tool calls with cache usage; an altered thinking block is refused', async () => {
    const fake = await start([
      {
        reasoning: 'think',
        text: 'hi',
        // The request declares no tools: the stream's reading is what is checked.
        undeclared: true,
        toolCalls: [call('t1', '{"path":"a"}'), call('t2', '{"path":"b"}')],
        fragmentSize: 2,
      },
    ]);
    const reasoning: string[] = [];
    const round = await provider(fake).complete(
      request([{ role: 'user', text: 'go' }], { onReasoning: (d) => reasoning.push(d) }),
    );
    expect(reasoning.join('')).toBe('think');
    expect(round.text).toBe('hi');
    expect(round.toolCalls).toEqual([call('t1', '{"path":"a"}'), call('t2', '{"path":"b"}')]);
    expect(round.usage?.cachedInputTokens).toBe(0);
    expect(round.native?.provider).toBe('anthropic');
    const [block] = (round.native?.data ?? []) as Array<{ thinking: string; signature: string }>;
    expect(block?.thinking).toBe('think');

    // The same loop sent back with the thinking text changed: the fake refuses it as the API does.
    fake.push({ text: 'ok' });
    const altered = {
      ...round,
      native: { provider: 'anthropic' as const, data: [{ ...block, thinking: 'thunk' }] },
    };
    const history: Message[] = [
      { role: 'user', text: 'go' },
      { role: 'assistant', text: 'hi', toolCalls: altered.toolCalls, native: altered.native },
      { role: 'tool', callId: 't1', name: 'read', output: 'A' },
      { role: 'tool', callId: 't2', name: 'read', output: 'B' },
    ];
    await expect(provider(fake).complete(request(history))).rejects.toThrow(
      /Invalid `signature` in `thinking` block/,
    );
    // Unchanged, it passes and the prefix is read from the cache.
    history[1] = { role: 'assistant', text: 'hi', toolCalls: round.toolCalls, native: round.native };
    const next = await provider(fake).complete(request(history));
    expect(next.text).toBe('ok');
    expect(next.usage?.cachedInputTokens).toBeGreaterThan(0);
    expect(next.usage?.inputTokens).toBe(
      Object.values(fake.requests.at(-1)?.usage ?? {}).reduce((sum, n) => sum + n, 0),
    );
  });

  it('"prompt is too long" is a ContextOverflowError; a tool-pointing 400 names server and tool', async () => {
    const fake = await start([
      { kind: 'http_error', status: 400, message: 'prompt is too long: 210000 tokens > 200000 maximum' },
      { kind: 'http_error', status: 400, message: 'tools.0.custom.input_schema: JSON schema is invalid' },
    ]);
    await expect(provider(fake).complete(request([{ role: 'user', text: 'x' }]))).rejects.toBeInstanceOf(
      ContextOverflowError,
    );
    const tools = [
      {
        name: 'mcp_s_t',
        description: '',
        parameters: { type: 'object' },
        origin: { server: 's', tool: 't' },
      },
    ];
    await expect(provider(fake).complete(request([{ role: 'user', text: 'x' }], { tools }))).rejects.toThrow(
      '(tool "t" of MCP server "s")',
    );
  });

  it('an error event in the stream and a 404 read as the person needs them', async () => {
    const fake = await start([
      { kind: 'stream_error', type: 'overloaded_error', message: 'Overloaded', afterText: 'par' },
      { kind: 'http_error', status: 404, message: 'Not Found' },
    ]);
    await expect(provider(fake).complete(request([{ role: 'user', text: 'x' }]))).rejects.toThrow(
      'model request failed: Overloaded (overloaded_error)',
    );
    await expect(provider(fake).complete(request([{ role: 'user', text: 'x' }]))).rejects.toThrow(
      `HTTP 404: Not Found — check ANTHROPIC_BASE_URL (${fake.url}; the address without /v1)`,
    );
  });

  it('a stalled stream times out; a cancel is an AbortError', async () => {
    const fake = await start([
      { kind: 'hang', afterText: 'par' },
      { kind: 'hang', afterText: 'tial' },
    ]);
    await expect(
      provider(fake, { requestTimeoutMs: 200 }).complete(request([{ role: 'user', text: 'x' }])),
    ).rejects.toThrow(/timed out: no data for 0\.2 s/);
    const abort = new AbortController();
    const pending = provider(fake).complete(
      request([{ role: 'user', text: 'x' }], { signal: abort.signal, onText: () => abort.abort() }),
    );
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('the fake refuses what the API refuses', () => {
  const fakes: FakeAnthropic[] = [];
  afterEach(async () => {
    await Promise.all(fakes.splice(0).map((fake) => fake.close()));
  });
  const post = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const fake = await startFakeAnthropic([{ text: 'ok' }]);
    fakes.push(fake);
    const response = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': FAKE_ANTHROPIC_KEY, 'anthropic-version': '2023-06-01', ...headers },
      body: JSON.stringify(body),
    });
    const json = response.ok
      ? undefined
      : ((await response.json()) as { error: { type: string; message: string } });
    if (response.ok) await response.text();
    return { status: response.status, message: json?.error.message ?? '' };
  };
  const user = (text: string) => ({ role: 'user', content: text });
  const base = { model: 'claude-sonnet-4-5', max_tokens: 100, stream: true, messages: [user('hi')] };

  it.each([
    ['missing max_tokens', { ...base, max_tokens: undefined }, /max_tokens: Field required/],
    [
      'budget ≥ max_tokens',
      { ...base, thinking: { type: 'enabled', budget_tokens: 2000 } },
      /must be greater than/,
    ],
    [
      'first turn not the user',
      { ...base, messages: [{ role: 'assistant', content: 'x' }] },
      /first message/,
    ],
    ['two user turns in a row', { ...base, messages: [user('a'), user('b')] }, /roles must alternate/],
    [
      'a tool_use without its result',
      {
        ...base,
        messages: [
          user('a'),
          { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 't', input: {} }] },
          user('b'),
        ],
      },
      /without `tool_result` blocks/,
    ],
    [
      'a tool_result answering nothing',
      {
        ...base,
        messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'q', content: 'r' }] }],
      },
      /unexpected `tool_use_id`/,
    ],
    [
      'five cache breakpoints',
      {
        ...base,
        system: [1, 2, 3, 4, 5].map((n) => ({
          type: 'text',
          text: `s${n}`,
          cache_control: { type: 'ephemeral' },
        })),
      },
      /maximum of 4 blocks with cache_control/,
    ],
    [
      'a tool schema not of type object',
      { ...base, tools: [{ name: 't', input_schema: { type: 'string' } }] },
      /input_schema\.type/,
    ],
    [
      'a thinking block without a valid signature',
      {
        ...base,
        messages: [
          user('a'),
          { role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 'forged' }] },
          user('b'),
        ],
      },
      /Invalid `signature`/,
    ],
    [
      'a tool loop whose thinking block was dropped, with thinking on',
      {
        ...base,
        max_tokens: 4000,
        thinking: { type: 'enabled', budget_tokens: 2000 },
        messages: [
          user('a'),
          { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 't', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: 'r' }] },
        ],
      },
      /Expected `thinking` or `redacted_thinking`, but found `tool_use`/,
    ],
  ])('%s', async (_name, body, message) => {
    const answer = await post(body as Record<string, unknown>);
    expect(answer.status).toBe(400);
    expect(answer.message).toMatch(message);
  });

  it('a missing key or version header', async () => {
    expect((await post(base, { 'x-api-key': '' })).status).toBe(401);
    const noVersion = await post(base, { 'anthropic-version': '' });
    expect(noVersion.message).toMatch(/anthropic-version/);
  });
});
