import OpenAI, { APIError } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeModel, type FakeStep, startFakeModel } from '../fixtures/fake-model.js';

const fakes: FakeModel[] = [];

async function start(steps: FakeStep[]): Promise<FakeModel> {
  const fake = await startFakeModel(steps);
  fakes.push(fake);
  return fake;
}

function client(fake: FakeModel): OpenAI {
  return new OpenAI({ baseURL: fake.url, apiKey: 'test-key', maxRetries: 0 });
}

function streamRequest(model = 'fake-model') {
  return {
    model,
    messages: [{ role: 'user' as const, content: 'hello there' }],
    stream: true as const,
    stream_options: { include_usage: true },
  };
}

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

/** Reads the raw SSE `data:` payloads, to check the wire format itself. */
async function rawEvents(fake: FakeModel, body: Record<string, unknown>): Promise<string[]> {
  const response = await fetch(`${fake.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice('data: '.length));
}

afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

describe('fake model', () => {
  it('streams text in fragments of fragmentSize, then finish_reason and usage', async () => {
    const fake = await start([
      {
        text: 'Hello, fragmented world',
        fragmentSize: 5,
        usage: { prompt_tokens: 11, completion_tokens: 3 },
      },
    ]);
    const chunks = await collect(await client(fake).chat.completions.create(streamRequest()));
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    const pieces = chunks.flatMap((c) => (c.choices[0]?.delta.content ? [c.choices[0].delta.content] : []));
    expect(pieces).toEqual(['Hello', ', fra', 'gment', 'ed wo', 'rld']);
    expect(chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean)).toEqual(['stop']);
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toEqual({ prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 });
    expect(fake.requests[0]?.path).toBe('/v1/chat/completions');
    expect(fake.requests[0]?.body.messages).toEqual([{ role: 'user', content: 'hello there' }]);
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer test-key');
  });

  it('sends tool calls as a head fragment then argument pieces, with finish_reason tool_calls', async () => {
    const fake = await start([
      // The request declares no tools: the stream's shape is what is checked.
      {
        undeclared: true,
        toolCalls: [{ name: 'read_file', arguments: '{"path":"a.txt"}', id: 'call_x' }],
        fragmentSize: 4,
      },
    ]);
    const events = await rawEvents(fake, { ...streamRequest(), stream_options: undefined });
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e) as ChatCompletionChunk);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    const fragments = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(fragments[0]).toEqual({
      index: 0,
      id: 'call_x',
      type: 'function',
      function: { name: 'read_file', arguments: '' },
    });
    expect(fragments.slice(1).map((f) => f.function?.arguments)).toEqual(['{"pa', 'th":', '"a.t', 'xt"}']);
    expect(fragments.slice(1).every((f) => f.index === 0 && f.id === undefined)).toBe(true);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
    // No include_usage: no usage chunk.
    expect(chunks.some((c) => c.usage)).toBe(false);
  });

  it('can split names, interleave calls and omit ids, as some compatible servers do', async () => {
    const fake = await start([
      {
        undeclared: true,
        toolCalls: [
          { name: 'alpha', arguments: 'aaaa', id: '' },
          { name: 'beta', arguments: 'bb', id: 'call_b' },
        ],
        fragmentSize: 2,
        splitNames: true,
        interleaveToolCalls: true,
      },
    ]);
    const events = await rawEvents(fake, streamRequest());
    const fragments = events
      .slice(0, -1)
      .flatMap((e) => (JSON.parse(e) as ChatCompletionChunk).choices[0]?.delta.tool_calls ?? []);
    expect(fragments).toEqual([
      { index: 0, type: 'function', function: { name: 'alp', arguments: '' } },
      { index: 1, id: 'call_b', type: 'function', function: { name: 'be', arguments: '' } },
      { index: 0, function: { name: 'ha' } },
      { index: 1, function: { name: 'ta' } },
      { index: 0, function: { arguments: 'aa' } },
      { index: 1, function: { arguments: 'bb' } },
      { index: 0, function: { arguments: 'aa' } },
    ]);
  });

  it('refuses a scripted call to a function the request does not declare, as a real model cannot make one', async () => {
    const step = { toolCalls: [{ name: 'read', arguments: '{}' }] };
    const fake = await start([step, step]);
    const refused = await client(fake)
      .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })
      .catch((error: Error) => error);
    expect(String(refused)).toContain('the script calls read, which this request does not declare');
    const declared = await client(fake).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'function', function: { name: 'read', parameters: { type: 'object' } } }],
    });
    expect(declared.choices[0]?.message.tool_calls?.[0]).toMatchObject({ function: { name: 'read' } });
  });

  it('defaults usage to rough character counts, at least 1', async () => {
    const fake = await start([{ text: '' }]);
    const chunks = await collect(await client(fake).chat.completions.create(streamRequest()));
    const usage = chunks.at(-1)?.usage;
    expect(usage?.completion_tokens).toBe(1);
    expect(usage?.prompt_tokens).toBeGreaterThan(1);
    expect(usage?.total_tokens).toBe((usage?.prompt_tokens ?? 0) + 1);
  });

  it('answers non-streaming requests with a chat.completion', async () => {
    const fake = await start([
      { text: 'plain', undeclared: true, toolCalls: [{ name: 't', arguments: '{}', id: 'c1' }] },
    ]);
    const completion = await client(fake).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message.content).toBe('plain');
    expect(completion.choices[0]?.message.tool_calls).toEqual([
      { id: 'c1', type: 'function', function: { name: 't', arguments: '{}' } },
    ]);
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('turns http_error into an APIError carrying the status and message', async () => {
    const fake = await start([{ kind: 'http_error', status: 429, message: 'slow down' }]);
    const error = await client(fake)
      .chat.completions.create(streamRequest())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(429);
    expect((error as APIError).error).toMatchObject({ message: 'slow down', type: 'invalid_request_error' });
  });

  it('hangs after afterText until the client aborts', async () => {
    const fake = await start([{ kind: 'hang', afterText: 'partial' }]);
    const controller = new AbortController();
    const stream = await client(fake).chat.completions.create(streamRequest(), { signal: controller.signal });
    const seen: string[] = [];
    for await (const chunk of stream) {
      seen.push(chunk.choices[0]?.delta.content ?? '');
      controller.abort();
    }
    expect(seen).toEqual(['partial']);
  });

  it('ends a hanging response when closed', async () => {
    const fake = await startFakeModel([{ kind: 'hang' }]);
    const stream = await client(fake).chat.completions.create(streamRequest());
    const reading = collect(stream);
    await fake.close();
    await expect(reading).rejects.toThrow();
  });

  it('drops the connection mid-stream', async () => {
    const fake = await start([{ kind: 'drop' }]);
    const stream = await client(fake).chat.completions.create(streamRequest());
    const chunks: ChatCompletionChunk[] = [];
    const failure = await (async () => {
      for await (const chunk of stream) chunks.push(chunk);
    })().catch((e: unknown) => e);
    expect(chunks).toHaveLength(1);
    expect(failure).toBeInstanceOf(Error);
  });

  it('answers 500 once the script is exhausted', async () => {
    const fake = await start([{ text: 'only one' }]);
    await collect(await client(fake).chat.completions.create(streamRequest()));
    const error = await client(fake)
      .chat.completions.create(streamRequest())
      .catch((e: unknown) => e);
    expect((error as APIError).status).toBe(500);
    expect((error as APIError).message).toContain('fake model: script exhausted after 1 requests');
    expect(fake.requests).toHaveLength(2);
  });

  it('runs function steps against the recorded request, and accepts pushed steps', async () => {
    const fake = await start([]);
    fake.push((request) => ({ text: `you said ${String(request.body.messages[0]?.content)}` }));
    const chunks = await collect(await client(fake).chat.completions.create(streamRequest()));
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('you said hello there');
  });

  it('waitForRequests resolves on arrival and rejects on timeout', async () => {
    const fake = await start([{ kind: 'hang' }]);
    const waiting = fake.waitForRequests(1);
    const controller = new AbortController();
    const pending = client(fake)
      .chat.completions.create(streamRequest(), { signal: controller.signal })
      .then(collect)
      .catch(() => undefined);
    await waiting;
    expect(fake.requests).toHaveLength(1);
    controller.abort();
    await pending;
    await expect(fake.waitForRequests(2, 50)).rejects.toThrow(
      'fake model: waited 50 ms for request 2, got 1 requests',
    );
  });

  it('lists one model', async () => {
    const fake = await start([]);
    const models = await client(fake).models.list();
    expect(models.data.map((m) => m.id)).toEqual(['fake-model']);
    expect(fake.requests).toHaveLength(0);
  });
});
