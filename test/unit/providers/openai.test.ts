import { afterEach, describe, expect, it } from 'vitest';
import type { ModelSettings } from '../../../src/config/model-settings.js';
import { createRedactor } from '../../../src/permissions/redact.js';
import type { Message } from '../../../src/providers/messages.js';
import { createProvider, type ProviderOptions } from '../../../src/providers/registry.js';
import type { ChatProvider } from '../../../src/providers/types.js';
import {
  type ChatRequest,
  ContextOverflowError,
  ModelNotConfiguredError,
  ProviderError,
} from '../../../src/providers/types.js';
import { type FakeModel, type FakeStep, startFakeModel } from '../../fixtures/fake-model.js';

const fakes: FakeModel[] = [];
// The PNG signature first: the fake, like the API, looks at the bytes of an image it is sent.
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('png'),
]).toString('base64');

async function start(steps: FakeStep[]): Promise<FakeModel> {
  const fake = await startFakeModel(steps);
  fakes.push(fake);
  return fake;
}

function provider(
  fake: FakeModel | undefined,
  overrides: Partial<ModelSettings> = {},
  options: ProviderOptions = {},
): ChatProvider {
  return createProvider(
    {
      provider: 'openai',
      keyVariable: 'OPENAI_API_KEY',
      baseURL: fake?.url ?? 'http://127.0.0.1:9/v1',
      apiKey: 'test-key',
      model: 'test-model',
      contextWindow: 128_000,
      maxRetries: 0,
      ...overrides,
    },
    options,
  );
}

const failure = (pending: Promise<unknown>) => pending.then(() => undefined).catch((e: unknown) => e);

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    messages: [{ role: 'user', text: 'hi' }],
    tools: [],
    signal: new AbortController().signal,
    ...overrides,
  };
}

afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

describe('OpenAIChatProvider', () => {
  it('streams text through onText and returns the round with usage', async () => {
    const fake = await start([
      { text: 'Hello from the model', fragmentSize: 6, usage: { prompt_tokens: 9, completion_tokens: 4 } },
    ]);
    const deltas: string[] = [];
    const round = await provider(fake).complete(request({ onText: (d) => deltas.push(d) }));
    expect(deltas).toEqual(['Hello ', 'from t', 'he mod', 'el']);
    expect(round).toEqual({
      text: 'Hello from the model',
      reasoning: '',
      toolCalls: [],
      usage: { inputTokens: 9, outputTokens: 4, totalTokens: 13 },
      stop: { reason: 'end_turn', detail: 'finish_reason: stop' },
    });
    const body = fake.requests[0]?.body;
    expect(body?.model).toBe('test-model');
    expect(body?.stream).toBe(true);
    expect(body?.stream_options).toEqual({ include_usage: true });
    expect(body && 'tools' in body).toBe(false);
  });

  it('collects reasoning_content apart from the answer and sends it back on a tool-call message', async () => {
    const fake = await start([
      // These requests declare no tools: what is checked is how the stream is read.
      {
        reasoning: 'The user wants a file read.',
        undeclared: true,
        toolCalls: [{ name: 'read', arguments: '{}' }],
      },
      { text: 'ok' },
    ]);
    const deltas: string[] = [];
    const round = await provider(fake).complete(request({ onText: (d) => deltas.push(d) }));
    expect(round.reasoning).toBe('The user wants a file read.');
    expect(round.text).toBe('');
    expect(deltas).toEqual([]);
    const [toolCall] = round.toolCalls;
    const messages: Message[] = [
      { role: 'user', text: 'hi' },
      { role: 'assistant', text: '', toolCalls: round.toolCalls, reasoning: round.reasoning },
      { role: 'tool', callId: toolCall?.id ?? '', name: 'read', output: 'body' },
    ];
    await provider(fake).complete(request({ messages }));
    expect(fake.requests[1]?.body.messages[1]).toMatchObject({
      role: 'assistant',
      reasoning_content: 'The user wants a file read.',
    });
  });

  it('reassembles two parallel tool calls by index, with split names and arguments', async () => {
    const fake = await start([
      {
        undeclared: true,
        toolCalls: [
          { name: 'read_file', arguments: '{"path":"src/a.ts"}', id: 'call_a' },
          { name: 'search_text', arguments: '{"pattern":"TODO","path":"."}' },
        ],
        fragmentSize: 3,
        splitNames: true,
        interleaveToolCalls: true,
      },
    ]);
    const round = await provider(fake).complete(request());
    expect(round.stop?.reason).toBe('tool_use');
    expect(round.text).toBe('');
    expect(round.toolCalls).toHaveLength(2);
    expect(round.toolCalls[0]).toEqual({ id: 'call_a', name: 'read_file', arguments: '{"path":"src/a.ts"}' });
    expect(round.toolCalls[1]).toMatchObject({
      name: 'search_text',
      arguments: '{"pattern":"TODO","path":"."}',
    });
    expect(round.toolCalls[1]?.id).toMatch(/^call_fake_/);
  });

  it('passes malformed arguments through untouched and fills a missing id', async () => {
    const fake = await start([
      { undeclared: true, toolCalls: [{ name: 'shell', arguments: '{"command": "ls', id: '' }] },
    ]);
    const round = await provider(fake).complete(request());
    expect(round.toolCalls).toEqual([{ id: 'call_0', name: 'shell', arguments: '{"command": "ls' }]);
  });

  it('sends tools when there are some', async () => {
    const fake = await start([{ text: 'ok' }]);
    const parameters = { type: 'object', properties: { path: { type: 'string' } } };
    await provider(fake).complete(
      request({ tools: [{ name: 'read_file', description: 'Read a file', parameters }] }),
    );
    expect(fake.requests[0]?.body.tools).toEqual([
      { type: 'function', function: { name: 'read_file', description: 'Read a file', parameters } },
    ]);
  });

  it('maps an HTTP error to ProviderError with the status and server message', async () => {
    const fake = await start([{ kind: 'http_error', status: 500, message: 'upstream exploded' }]);
    const error = await provider(fake)
      .complete(request())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      status: 500,
      message: 'model request failed: HTTP 500: upstream exploded',
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('tells a request too long for the context window apart from other failures', async () => {
    const fake = await start([
      // DeepSeek and vLLM say it only in words; OpenAI sends a code.
      { kind: 'http_error', status: 400, message: "This model's maximum context length is 65536 tokens." },
      { kind: 'http_error', status: 400, message: 'Input is too long.', code: 'context_length_exceeded' },
      { kind: 'http_error', status: 400, message: 'Invalid value for tools[0].name' },
      { kind: 'http_error', status: 500, message: 'context window of the upstream pool exhausted' },
    ]);
    const failures = [];
    for (let i = 0; i < 4; i++)
      failures.push(
        await provider(fake)
          .complete(request())
          .catch((e: unknown) => e),
      );
    expect(failures.map((e) => e instanceof ContextOverflowError)).toEqual([true, true, false, false]);
    expect(failures.every((e) => e instanceof ProviderError)).toBe(true);
    expect((failures[0] as Error).message).toContain('maximum context length');
  });

  it('reports an unreachable base URL', async () => {
    const fake = await startFakeModel();
    const url = fake.url;
    await fake.close();
    const error = await provider(undefined, { baseURL: url })
      .complete(request())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).status).toBeUndefined();
    expect((error as ProviderError).message).toMatch(
      new RegExp(`^model request failed: cannot reach ${url.replace(/[.]/g, '\\.')}: .*ECONNREFUSED`),
    );
  });

  it('rejects with AbortError (not ProviderError) when aborted mid-stream', { timeout: 5_000 }, async () => {
    const fake = await start([{ kind: 'hang', afterText: 'thinking' }]);
    const controller = new AbortController();
    const deltas: string[] = [];
    const pending = provider(fake).complete(
      request({
        signal: controller.signal,
        onText: (d) => {
          deltas.push(d);
          controller.abort();
        },
      }),
    );
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ name: 'AbortError', message: 'cancelled' });
    expect(deltas).toEqual(['thinking']);
  });

  it('rejects with AbortError when aborted before the response starts', async () => {
    const fake = await start([{ kind: 'hang' }]);
    const controller = new AbortController();
    const pending = provider(fake).complete(request({ signal: controller.signal }));
    await fake.waitForRequests(1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reports a dropped stream as ended early', async () => {
    const fake = await start([{ kind: 'drop' }]);
    const error = await provider(fake)
      .complete(request())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toMatch(/^model request failed: the stream ended early/);
  });

  it('throws ModelNotConfiguredError only when complete() is called without a key', async () => {
    const fake = await start([]);
    const keyless = provider(fake, { apiKey: undefined });
    expect(keyless.model).toBe('test-model');
    const error = await keyless.complete(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelNotConfiguredError);
    expect((error as Error).message).toContain('OPENAI_API_KEY');
    expect(fake.requests).toHaveLength(0);
  });

  it('decides acceptsMedia from the model name unless settings say otherwise', () => {
    expect(provider(undefined, { model: 'gpt-4o-mini' }).acceptsMedia).toBe(true);
    expect(provider(undefined, { model: 'deepseek-v4-flash' }).acceptsMedia).toBe(false);
    expect(provider(undefined, { model: 'deepseek-v4-flash', acceptsMedia: true }).acceptsMedia).toBe(true);
  });
});

describe('OpenAIChatProvider message conversion', () => {
  const history: Message[] = [
    { role: 'system', text: 'be brief' },
    { role: 'user', text: 'look at these' },
    {
      role: 'assistant',
      text: '',
      toolCalls: [
        { id: 'c1', name: 'screenshot', arguments: '{}' },
        { id: 'c2', name: 'read_file', arguments: '{"path":"a"}' },
      ],
    },
    {
      role: 'tool',
      callId: 'c1',
      name: 'screenshot',
      output: [
        { type: 'text', text: 'captured' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
      ],
    },
    { role: 'tool', callId: 'c2', name: 'read_file', output: 'file body' },
    { role: 'assistant', text: 'done' },
    { role: 'summary', text: 'earlier: the user asked for screenshots' },
  ];

  it('sends media as placeholder text plus one user message of images after the tool run', async () => {
    const fake = await start([{ text: 'ok' }]);
    await provider(fake, { model: 'gpt-4o' }).complete(request({ messages: history }));
    const messages = fake.requests[0]?.body.messages;
    expect(messages?.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
      'assistant',
      'system',
    ]);
    expect(messages?.[7]).toEqual({
      role: 'system',
      content: '[Summary of previous conversation]\nearlier: the user asked for screenshots',
    });
    expect(messages?.[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'screenshot', arguments: '{}' } },
        { id: 'c2', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } },
      ],
    });
    expect(messages?.[3]).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'captured\n[image: image/png, 0.0 KB]',
    });
    expect(messages?.[4]).toEqual({ role: 'tool', tool_call_id: 'c2', content: 'file body' });
    expect(messages?.[5]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Images returned by tool screenshot:' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      ],
    });
  });

  it('sends only the placeholder when the model does not take media', async () => {
    const fake = await start([{ text: 'ok' }]);
    await provider(fake, { model: 'deepseek-v4-flash' }).complete(request({ messages: history }));
    const messages = fake.requests[0]?.body.messages;
    expect(messages?.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
      'system',
    ]);
    expect(messages?.[3]?.content).toBe('captured\n[image: image/png, 0.0 KB]');
  });

  it('ends a stream that stalls mid-reply after the idle timeout, with a clear error', async () => {
    const fake = await start([{ kind: 'hang', afterText: 'thinking' }]);
    const deltas: string[] = [];
    const error = await failure(
      provider(fake, { requestTimeoutMs: 300 }).complete(request({ onText: (d) => deltas.push(d) })),
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toBe(
      `model request timed out: no data for 0.3 s from ${fake.url} (GEEKAGENT_REQUEST_TIMEOUT)`,
    );
    expect(deltas).toEqual(['thinking']);
  });

  it('times out a server that never sends headers, without retrying past the timeout', async () => {
    const fake = await start([{ kind: 'silent' }, { kind: 'silent' }, { kind: 'silent' }]);
    const error = await failure(provider(fake, { requestTimeoutMs: 300, maxRetries: 2 }).complete(request()));
    expect((error as Error).message).toBe(
      `model request timed out: no data for 0.3 s from ${fake.url} (GEEKAGENT_REQUEST_TIMEOUT)`,
    );
    // One request: a retry would have sent a second to the silent server.
    expect(fake.requests).toHaveLength(1);
  });

  it('keeps a slow stream that sends within the timeout, however long it takes in total', async () => {
    const fake = await start([{ text: 'slow but steady', fragmentSize: 3, chunkDelayMs: 100 }]);
    // 9 chunks, 100 ms apart: longer than the 600 ms idle limit in total, never idle that long.
    const round = await provider(fake, { requestTimeoutMs: 600 }).complete(request());
    expect(round.text).toBe('slow but steady');
  });

  it('reports a 200 HTML page (captive portal, wrong base URL) as such', async () => {
    const page = '<!DOCTYPE html><html><body>Please log in to the hotel Wi-Fi</body></html>';
    const fake = await start([
      { kind: 'raw', status: 200, contentType: 'text/html; charset=utf-8', body: page },
      { kind: 'raw', status: 200, contentType: 'text/plain', body: `\n  ${page}` },
      { kind: 'raw', status: 200, body: page },
    ]);
    const expected = `model endpoint ${fake.url} answered 200 with an HTML page, not a chat completion stream — check OPENAI_BASE_URL`;
    for (let i = 0; i < 3; i++) {
      const error = await failure(provider(fake).complete(request()));
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as Error).message).toBe(expected);
    }
  });

  it('says an HTML error page is an HTML page instead of dumping its markup', async () => {
    const fake = await start([
      { kind: 'raw', status: 404, contentType: 'text/html', body: '<html>Not Found</html>' },
    ]);
    const error = await failure(provider(fake).complete(request()));
    expect((error as Error).message).toBe(
      `model request failed: HTTP 404: the server answered with an HTML page, not the API — check OPENAI_BASE_URL (${fake.url})`,
    );
  });

  it('redacts the key and env secrets that an error body echoes', async () => {
    const fake = await start([
      (req) => ({
        kind: 'http_error',
        status: 401,
        message: `Incorrect API key provided: ${String(req.headers.authorization).slice('Bearer '.length)}; org token org-tok-9`,
      }),
    ]);
    const redact = createRedactor({ ORG_TOKEN: 'org-tok-9' });
    const error = await failure(
      provider(fake, { apiKey: 'sk-live-abcdef123' }, { redact }).complete(request()),
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      status: 401,
      message:
        'model request failed: HTTP 401: Incorrect API key provided: [REDACTED:OPENAI_API_KEY]; org token [REDACTED:ORG_TOKEN] — check OPENAI_API_KEY',
    });
  });
});
