/**
 * The Responses provider's pure parts: the conversation as input items (reasoning items of its
 * own kept in order before their calls, other providers' state left out, images in call outputs),
 * tool schema rules with their notes, the stream reader (parallel calls, reasoning, usage with
 * cached tokens, failed/incomplete/error events) and the request params (store, reasoning,
 * prompt_cache_key).
 */
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import type { ModelSettings } from '../../../src/config/model-settings.js';
import type { Message } from '../../../src/providers/messages.js';
import { toResponsesInput } from '../../../src/providers/responses/messages.js';
import { isReasoningModel, ResponsesRequester } from '../../../src/providers/responses/request.js';
import { checkParameters, toolNamedBy, toResponsesTools } from '../../../src/providers/responses/schema.js';
import { readResponsesRound } from '../../../src/providers/responses/stream.js';
import { ContextOverflowError, ProviderError, type ProviderTool } from '../../../src/providers/types.js';
import { startFakeResponses } from '../../fixtures/fake-responses.js';

const reasoningItem = {
  id: 'rs_1',
  type: 'reasoning' as const,
  summary: [{ type: 'summary_text' as const, text: 'think' }],
  encrypted_content: 'sealed',
};

describe('toResponsesInput', () => {
  it('sends the system prompt as instructions and the history as items, reasoning before its calls', () => {
    const messages: Message[] = [
      { role: 'system', text: 'be brief' },
      { role: 'summary', text: 'earlier' },
      { role: 'user', text: 'hi', context: 'recalled: x' },
      {
        role: 'assistant',
        text: 'looking',
        toolCalls: [{ id: 'call_1', name: 'read', arguments: '{}' }],
        native: { provider: 'openai-responses', data: { reasoning: [reasoningItem] } },
      },
      { role: 'tool', callId: 'call_1', name: 'read', output: 'ok' },
      // Another provider's state, and a damaged one of ours, are left out.
      {
        role: 'assistant',
        text: 'a',
        native: { provider: 'anthropic', data: { reasoning: [reasoningItem] } },
      },
      {
        role: 'assistant',
        text: 'b',
        native: { provider: 'openai-responses', data: { reasoning: [{ id: 1 }] } },
      },
    ];
    const { instructions, input } = toResponsesInput(messages, true);
    expect(instructions).toBe('be brief');
    expect(input).toEqual([
      { type: 'message', role: 'developer', content: '[Summary of previous conversation]\nearlier' },
      { type: 'message', role: 'user', content: 'recalled: x\n\nhi' },
      reasoningItem,
      { type: 'message', role: 'assistant', content: 'looking' },
      { type: 'function_call', call_id: 'call_1', name: 'read', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
      { type: 'message', role: 'assistant', content: 'a' },
      { type: 'message', role: 'assistant', content: 'b' },
    ]);
  });

  it('sends an assistant message back as its message items with their phases; a damaged or mismatched state as one message', () => {
    const native = (messages: unknown) => ({
      provider: 'openai-responses' as const,
      data: { reasoning: [], messages },
    });
    const assistant = (text: string, messages: unknown): Message => ({
      role: 'assistant',
      text,
      native: native(messages),
    });
    const items = (message: Message) => toResponsesInput([message], false).input;
    const spans = [
      { length: 5, phase: 'commentary' },
      { length: 0, phase: 'commentary' },
      { length: 4, phase: 'final_answer' },
    ];
    expect(items(assistant('Look.Done', spans))).toEqual([
      { type: 'message', role: 'assistant', content: 'Look.', phase: 'commentary' },
      { type: 'message', role: 'assistant', content: 'Done', phase: 'final_answer' },
    ]);
    const plain = [{ type: 'message', role: 'assistant', content: 'Look.Done' }];
    // Spans that do not add up to the text, or that a session file damaged, are not used.
    expect(items(assistant('Look.Done!', spans))).toEqual([{ ...plain[0], content: 'Look.Done!' }]);
    expect(items(assistant('Look.Done', [{ length: 9, phase: 'Commentary\u001b[2J' }]))).toEqual(plain);
    expect(
      items(
        assistant('Look.Done', [
          { length: -1, phase: null },
          { length: 10, phase: null },
        ]),
      ),
    ).toEqual(plain);
    expect(items(assistant('Look.Done', 'commentary'))).toEqual(plain);
  });

  it("keeps each message item's share of the text and its phase from the stream", async () => {
    const added = (output_index: number, phase?: string) =>
      ({
        type: 'response.output_item.added',
        output_index,
        item: { type: 'message', id: `m${output_index}`, role: 'assistant', content: [], phase },
      }) as unknown as ResponseStreamEvent;
    const delta = (output_index: number, text: string) =>
      ({ type: 'response.output_text.delta', output_index, delta: text }) as unknown as ResponseStreamEvent;
    const completed = {
      type: 'response.completed',
      response: { usage: null },
    } as unknown as ResponseStreamEvent;
    async function* phased() {
      yield added(0, 'commentary');
      yield delta(0, 'Look');
      yield delta(0, '.');
      yield added(1, 'final_answer');
      yield delta(1, 'Done');
      yield completed;
    }
    const round = await readResponsesRound(phased(), undefined, undefined, new AbortController().signal);
    expect(round.text).toBe('Look.Done');
    expect(round.native).toEqual({
      provider: 'openai-responses',
      data: {
        reasoning: [],
        messages: [
          { length: 5, phase: 'commentary' },
          { length: 4, phase: 'final_answer' },
        ],
      },
    });
    // Without phases (older models) the round keeps no state for its messages.
    async function* unlabelled() {
      yield added(0);
      yield delta(0, 'Hi');
      yield completed;
    }
    const plain = await readResponsesRound(unlabelled(), undefined, undefined, new AbortController().signal);
    expect(plain.native).toBeUndefined();
  });

  it('puts images into the call output for a model that sees, and their placeholder otherwise', () => {
    const messages: Message[] = [
      { role: 'assistant', text: '', toolCalls: [{ id: 'c', name: 'shot', arguments: '{}' }] },
      {
        role: 'tool',
        callId: 'c',
        name: 'shot',
        output: [
          { type: 'text', text: 'a pixel:' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
      },
    ];
    expect(toResponsesInput(messages, true).input[1]).toEqual({
      type: 'function_call_output',
      call_id: 'c',
      output: [
        { type: 'input_text', text: 'a pixel:' },
        { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'auto' },
      ],
    });
    expect(toResponsesInput(messages, false).input[1]).toEqual({
      type: 'function_call_output',
      call_id: 'c',
      output: 'a pixel:\n[image: image/png, 0.0 KB]',
    });
  });
});

describe('tool schemas for the Responses API', () => {
  const tool = (name: string, parameters: unknown, origin?: ProviderTool['origin']): ProviderTool => ({
    name,
    description: name,
    parameters: parameters as ProviderTool['parameters'],
    ...(origin ? { origin } : {}),
  });

  it('keeps object schemas (adding a missing type), drops the rest with the reason', () => {
    expect(checkParameters({ type: 'object', properties: {} })).toEqual({ type: 'object', properties: {} });
    expect(checkParameters({ properties: { a: {} } })).toEqual({ type: 'object', properties: { a: {} } });
    expect(checkParameters({ type: 'string' })).toMatch(/top-level type is "string"/);
    expect(checkParameters({ type: 'object', anyOf: [] })).toMatch(/anyOf at the top level/);
    expect(checkParameters([])).toMatch(/not a JSON object/);

    const converted = toResponsesTools([
      tool('ok', { type: 'object' }),
      tool('mcp_s_bad', { type: 'object', enum: [{}] }, { server: 's', tool: 'bad' }),
      tool('ok2', { type: 'object' }),
    ]);
    expect(converted.tools).toEqual([
      { type: 'function', name: 'ok', description: 'ok', parameters: { type: 'object' }, strict: false },
      { type: 'function', name: 'ok2', description: 'ok2', parameters: { type: 'object' }, strict: false },
    ]);
    expect(converted.dropped.map((d) => d.tool.name)).toEqual(['mcp_s_bad']);
    expect(toolNamedBy('tools[1].parameters', converted.sources)).toBe('tool ok2');
    expect(toolNamedBy('input', converted.sources)).toBeUndefined();
  });
});

async function* events(list: unknown[]): AsyncIterable<ResponseStreamEvent> {
  for (const event of list) yield event as ResponseStreamEvent;
}

const completed = (usage?: Record<string, unknown>) => ({
  type: 'response.completed',
  response: { usage: usage ?? null },
});

describe('readResponsesRound', () => {
  it('reassembles parallel calls by output index, streams text and summary, keeps reasoning items', async () => {
    const text: string[] = [];
    const thoughts: string[] = [];
    const call = (id: string) => ({
      type: 'function_call',
      id: `fc_${id}`,
      call_id: id,
      name: 'read',
      arguments: '',
    });
    const round = await readResponsesRound(
      events([
        {
          type: 'response.output_item.added',
          output_index: 0,
          item: { type: 'reasoning', id: 'rs_1', summary: [] },
        },
        { type: 'response.reasoning_summary_part.added', output_index: 0, summary_index: 0 },
        { type: 'response.reasoning_summary_text.delta', output_index: 0, delta: 'plan' },
        { type: 'response.reasoning_summary_part.added', output_index: 0, summary_index: 1 },
        { type: 'response.reasoning_summary_text.delta', output_index: 0, delta: 'more' },
        { type: 'response.output_item.done', output_index: 0, item: reasoningItem },
        { type: 'response.output_text.delta', output_index: 1, delta: 'Hel' },
        { type: 'response.output_text.delta', output_index: 1, delta: 'lo' },
        { type: 'response.output_item.added', output_index: 2, item: call('a') },
        { type: 'response.output_item.added', output_index: 3, item: call('b') },
        { type: 'response.function_call_arguments.delta', output_index: 3, delta: '{"p":' },
        { type: 'response.function_call_arguments.delta', output_index: 2, delta: '{"p":' },
        { type: 'response.function_call_arguments.delta', output_index: 3, delta: '"b"}' },
        { type: 'response.function_call_arguments.delta', output_index: 2, delta: '"a"}' },
        completed({
          input_tokens: 100,
          output_tokens: 7,
          total_tokens: 107,
          input_tokens_details: { cached_tokens: 64 },
        }),
      ]),
      (delta) => text.push(delta),
      (delta) => thoughts.push(delta),
      new AbortController().signal,
    );
    expect(text.join('')).toBe('Hello');
    expect(round.reasoning).toBe('plan\n\nmore');
    expect(thoughts.join('')).toBe('plan\n\nmore');
    expect(round.toolCalls).toEqual([
      { id: 'a', name: 'read', arguments: '{"p":"a"}' },
      { id: 'b', name: 'read', arguments: '{"p":"b"}' },
    ]);
    expect(round.stop?.reason).toBe('tool_use');
    expect(round.usage).toEqual({
      inputTokens: 100,
      outputTokens: 7,
      totalTokens: 107,
      cachedInputTokens: 64,
    });
    expect(round.native).toEqual({ provider: 'openai-responses', data: { reasoning: [reasoningItem] } });
  });

  it('streams a refusal as the answer', async () => {
    const round = await readResponsesRound(
      events([
        { type: 'response.refusal.delta', output_index: 0, delta: 'I cannot help with that.' },
        completed(),
      ]),
      undefined,
      undefined,
      new AbortController().signal,
    );
    expect([round.text, round.stop?.reason]).toEqual(['I cannot help with that.', 'refusal']);
  });

  it('keeps what an incomplete response sent, as a round cut for its reason', async () => {
    const round = await readResponsesRound(
      events([
        { type: 'response.output_text.delta', output_index: 0, delta: 'The first half' },
        {
          type: 'response.incomplete',
          response: {
            incomplete_details: { reason: 'max_output_tokens' },
            usage: { input_tokens: 10, output_tokens: 16, total_tokens: 26 },
          },
        },
      ]),
      undefined,
      undefined,
      new AbortController().signal,
    );
    expect(round.text).toBe('The first half');
    expect(round.stop).toEqual({
      reason: 'max_tokens',
      detail: 'incomplete_details.reason: max_output_tokens',
    });
    expect(round.usage).toEqual({ inputTokens: 10, outputTokens: 16, totalTokens: 26 });
  });

  it('reports failed and error events, and a stream that never completed', async () => {
    const read = (list: unknown[]) =>
      readResponsesRound(events(list), undefined, undefined, new AbortController().signal);
    const overflow = read([
      {
        type: 'response.failed',
        response: { error: { code: 'context_length_exceeded', message: 'too long' } },
      },
    ]);
    await expect(overflow).rejects.toBeInstanceOf(ContextOverflowError);
    await expect(
      read([{ type: 'response.failed', response: { error: { code: 'server_error', message: 'boom' } } }]),
    ).rejects.toThrow('model request failed: boom (server_error)');
    const error = read([{ type: 'error', code: 'rate_limit_exceeded', message: 'slow down' }]);
    await expect(error).rejects.toBeInstanceOf(ProviderError);
    await expect(error).rejects.toThrow('model request failed: slow down (rate_limit_exceeded)');
    expect((await read([{ type: 'response.output_text.delta', delta: 'x' }])).stop).toBeNull();
  });
});

describe('ResponsesRequester params', () => {
  const settings = (model: string): ModelSettings & { apiKey: string } => ({
    provider: 'openai-responses',
    keyVariable: 'OPENAI_API_KEY',
    baseURL: 'http://127.0.0.1:9/v1',
    apiKey: 'k',
    model,
    contextWindow: 400_000,
    maxRetries: 0,
  });
  const requester = (model: string) =>
    new ResponsesRequester({ settings: settings(model), model, acceptsMedia: true, redact: (t) => t });

  it('sends store false, reasoning and its encrypted content only for reasoning models, and the cache key', () => {
    const messages: Message[] = [
      { role: 'system', text: 's' },
      { role: 'user', text: 'u' },
    ];
    const withKey = requester('gpt-5.1').params({ messages, tools: [], cacheKey: 'session-1' }).params;
    expect(withKey).toMatchObject({
      store: false,
      stream: true,
      instructions: 's',
      reasoning: { summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: 'session-1',
    });
    expect(withKey).not.toHaveProperty('tools');
    const plain = requester('gpt-4.1').params({ messages, tools: [] }).params;
    expect(plain).not.toHaveProperty('prompt_cache_key');
    expect(plain).not.toHaveProperty('reasoning');
    expect(plain).not.toHaveProperty('include');
    expect(plain.store).toBe(false);
  });

  it('notes a tool left out once per session', () => {
    const notes: string[] = [];
    const req = requester('gpt-5');
    const tools: ProviderTool[] = [
      {
        name: 'mcp_s_t',
        description: '',
        parameters: { type: 'object', not: {} },
        origin: { server: 's', tool: 't' },
      },
    ];
    for (let i = 0; i < 2; i++) req.params({ messages: [], tools, onNotice: (note) => notes.push(note) });
    expect(notes).toEqual([
      'tool "t" of MCP server s is left out of requests to the OpenAI Responses API: its input schema has not at the top level, which the Responses API refuses',
    ]);
  });

  it('a cancel during the stream ends the request as an AbortError', async () => {
    const fake = await startFakeResponses([{ kind: 'hang', afterText: 'partial' }]);
    try {
      const req = new ResponsesRequester({
        settings: { ...settings('gpt-5'), baseURL: fake.url },
        model: 'gpt-5',
        acceptsMedia: true,
        redact: (t) => t,
      });
      const abort = new AbortController();
      const round = req.complete({
        messages: [{ role: 'user', text: 'hi' }],
        tools: [],
        signal: abort.signal,
        onText: () => abort.abort(),
      });
      await expect(round).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      await fake.close();
    }
  });

  it('knows the reasoning models', () => {
    expect(['gpt-5', 'gpt-5.1-codex', 'o3', 'o4-mini', 'openai/gpt-5-mini'].map(isReasoningModel)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['gpt-4.1', 'gpt-4o', 'gpt-5-chat-latest'].map(isReasoningModel)).toEqual([false, false, false]);
  });
});
