/**
 * The Gemini provider's conversions without a server: the neutral history as contents (roles
 * merged, native parts sent back only to Gemini, a foreign call turn with Google's skip value),
 * a stream read into a ChatRound (thoughts, parallel calls, signatures kept, usage), stop reasons
 * and error mapping.
 */
import type { GenerateContentResponse } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONTEXT_WINDOW, type ModelSettings } from '../../../src/config/model-settings.js';
import { mapGeminiFailure, retryDelayMs } from '../../../src/providers/gemini/errors.js';
import { SKIP_SIGNATURE, toGeminiContents } from '../../../src/providers/gemini/messages.js';
import { GeminiRequester } from '../../../src/providers/gemini/request.js';
import { readGeminiRound } from '../../../src/providers/gemini/stream.js';
import { ContextOverflowError, type Message, ProviderError } from '../../../src/providers/types.js';
import { type FakeGemini, startFakeGemini } from '../../fixtures/fake-gemini.js';
import { requestError } from '../../fixtures/fake-gemini-checks.js';

async function* chunks(list: unknown[]): AsyncGenerator<GenerateContentResponse> {
  for (const chunk of list) yield chunk as GenerateContentResponse;
}
const model = (parts: unknown[], finishReason?: string) => ({
  candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}) }],
});
const handlers = () => {
  let n = 0;
  return { signal: new AbortController().signal, newCallId: () => `gen_${++n}` };
};

describe('toGeminiContents', () => {
  const call = { id: 'c1', name: 'read', arguments: '{"path":"a"}' };
  it('sends system text as systemInstruction, merges turns, answers calls by name; summary and context as user text', () => {
    const messages: Message[] = [
      { role: 'system', text: 'be brief' },
      { role: 'summary', text: 'earlier' },
      { role: 'user', text: 'go', context: 'recalled note' },
      { role: 'assistant', text: 'reading', toolCalls: [call] },
      {
        role: 'tool',
        callId: 'c1',
        name: 'read',
        output: [
          { type: 'text', text: 'body' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
      },
      { role: 'user', text: 'thanks' },
    ];
    const { systemInstruction, contents } = toGeminiContents(messages, true);
    expect(systemInstruction).toBe('be brief');
    expect(contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
    expect(contents[0]?.parts).toEqual([
      { text: '[Summary of previous conversation]\nearlier' },
      { text: 'recalled note\n\ngo' },
    ]);
    // A call turn from another provider: no Gemini signature, so Google's documented skip value.
    expect(contents[1]?.parts?.[1]).toEqual({
      functionCall: { name: 'read', args: { path: 'a' } },
      thoughtSignature: SKIP_SIGNATURE,
    });
    expect(contents[2]?.parts?.[0]).toEqual({
      functionResponse: { name: 'read', response: { output: 'body\n[image: image/png, 0.0 KB]' } },
    });
    expect(contents[2]?.parts?.slice(1)).toEqual([
      { text: 'Images returned by tool read:' },
      { inlineData: { mimeType: 'image/png', data: 'AAAA' } },
      { text: 'thanks' },
    ]);
  });

  it('sends Gemini’s own parts back (signatures, ids) and ignores another provider’s native data', () => {
    const parts = [
      { text: 'hm', thought: true },
      { functionCall: { id: 'g1', name: 'read', args: { path: 'a' } }, thoughtSignature: 'SIG' },
    ];
    const mine: Message = {
      role: 'assistant',
      text: '',
      toolCalls: [{ ...call, id: 'g1' }],
      native: { provider: 'gemini', data: { parts } },
    };
    const result: Message = { role: 'tool', callId: 'g1', name: 'read', output: 'x', isError: true };
    const own = toGeminiContents([{ role: 'user', text: 'q' }, mine, result], false).contents;
    expect(own[1]?.parts).toEqual(parts);
    expect(own[2]?.parts).toEqual([
      { functionResponse: { name: 'read', response: { error: 'x' }, id: 'g1' } },
    ]);

    const foreign: Message = { ...mine, native: { provider: 'anthropic', data: { parts } } };
    const other = toGeminiContents([{ role: 'user', text: 'q' }, foreign, result], false).contents;
    expect(other[1]?.parts).toEqual([
      { functionCall: { name: 'read', args: { path: 'a' } }, thoughtSignature: SKIP_SIGNATURE },
    ]);
    expect(other[2]?.parts?.[0]?.functionResponse?.id).toBeUndefined();
  });
});

describe('readGeminiRound', () => {
  it('streams thoughts and text, collects parallel calls, keeps the parts with their signatures, reads usage', async () => {
    const text: string[] = [];
    const thoughts: string[] = [];
    const round = await readGeminiRound(
      chunks([
        model([{ text: 'plan', thought: true }]),
        model([{ text: 'Hel' }]),
        model([{ text: 'lo' }]),
        model([
          { functionCall: { name: 'a', args: { x: 1 } }, thoughtSignature: 'S1' },
          { functionCall: { id: 'g2', name: 'b' } },
        ]),
        {
          ...model([{ text: '' }], 'STOP'),
          usageMetadata: {
            promptTokenCount: 100,
            candidatesTokenCount: 10,
            thoughtsTokenCount: 5,
            cachedContentTokenCount: 60,
            totalTokenCount: 115,
          },
        },
      ]),
      { ...handlers(), onText: (d) => text.push(d), onReasoning: (d) => thoughts.push(d) },
    );
    expect(text.join('')).toBe('Hello');
    expect(thoughts).toEqual(['plan']);
    expect(round.toolCalls).toEqual([
      { id: 'gen_1', name: 'a', arguments: '{"x":1}' },
      { id: 'g2', name: 'b', arguments: '{}' },
    ]);
    expect(round.stop).toEqual({ reason: 'tool_use', detail: 'finishReason: STOP' });
    expect(round.usage).toEqual({
      inputTokens: 100,
      outputTokens: 15,
      totalTokens: 115,
      cachedInputTokens: 60,
    });
    expect(round.native).toEqual({
      provider: 'gemini',
      data: {
        parts: [
          { text: 'plan', thought: true },
          { text: 'Hello' },
          { functionCall: { name: 'a', args: { x: 1 } }, thoughtSignature: 'S1' },
          { functionCall: { id: 'g2', name: 'b' } },
        ],
      },
    });
  });

  it('reports a reply stopped for SAFETY: an error when nothing came, a cut round when some text did', async () => {
    await expect(readGeminiRound(chunks([model([], 'SAFETY')]), handlers())).rejects.toThrow(
      'model request failed: the reply was blocked by Gemini’s safety filters (Gemini finishReason SAFETY)',
    );
    const round = await readGeminiRound(chunks([model([{ text: 'partial' }], 'RECITATION')]), handlers());
    expect(round.text).toBe('partial');
    expect(round.stop).toEqual({
      reason: 'content_filter',
      detail: 'finishReason: RECITATION',
      explanation: 'the reply was stopped for reciting copyrighted material',
    });
    const cut = await readGeminiRound(chunks([model([{ text: 'The first' }], 'MAX_TOKENS')]), handlers());
    expect([cut.text, cut.stop]).toEqual([
      'The first',
      { reason: 'max_tokens', detail: 'finishReason: MAX_TOKENS' },
    ]);
    await expect(readGeminiRound(chunks([model([], 'MALFORMED_FUNCTION_CALL')]), handlers())).rejects.toThrow(
      /malformed function call/,
    );
  });
});

describe('mapGeminiFailure', () => {
  const apiError = (status: number, body: unknown) =>
    Object.assign(new Error(JSON.stringify(body)), { name: 'ApiError', status });
  const context = {
    signal: new AbortController().signal,
    baseURL: 'http://x',
    keyVariable: 'GEMINI_API_KEY',
    sent: [{ name: 'mcp_s_t', description: '', parameters: {}, origin: { server: 's', tool: 't' } }],
  };
  it('names the key, classifies overflow, names the tool a declaration error is about', () => {
    const key = mapGeminiFailure(
      apiError(401, { error: { code: 401, message: 'bad', status: 'UNAUTHENTICATED' } }),
      context,
    );
    expect((key as Error).message).toBe(
      'model request failed: HTTP 401 UNAUTHENTICATED: bad — check GEMINI_API_KEY (the Gemini API key, sent as the x-goog-api-key header)',
    );
    const overflow = mapGeminiFailure(
      apiError(400, {
        error: {
          message: 'The input token count (2000000) exceeds the maximum number of tokens allowed (1048576).',
        },
      }),
      context,
    );
    expect(overflow).toBeInstanceOf(ContextOverflowError);
    const tool = mapGeminiFailure(
      apiError(400, {
        error: { message: 'Unknown name "x" at \'tools[0].function_declarations[0].parameters\'' },
      }),
      context,
    );
    expect(tool).toBeInstanceOf(ProviderError);
    expect((tool as Error).message).toContain(
      '(Gemini refused the schema of tool "t" of MCP server "s" (mcp_s_t))',
    );
  });

  it('waits as the server says: Retry-After, then RetryInfo, else backoff', () => {
    const info = apiError(429, {
      error: { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2.5s' }] },
    });
    expect(retryDelayMs(info, '1', 0)).toBe(1000);
    expect(retryDelayMs(info, null, 0)).toBe(2500);
    const backoff = retryDelayMs(apiError(503, {}), null, 2);
    expect(backoff).toBeGreaterThanOrEqual(1500);
    expect(backoff).toBeLessThanOrEqual(2000);
  });
});

describe('the fake Gemini API (what the e2e tests rely on)', () => {
  it('refuses a call turn sent back without the signature it gave, or with another one', () => {
    const call = { functionCall: { name: 'read', args: { path: 'a' } } };
    const body = (part: Record<string, unknown>) => ({
      contents: [
        { role: 'user', parts: [{ text: 'go' }] },
        { role: 'model', parts: [part] },
        { role: 'user', parts: [{ functionResponse: { name: 'read', response: { output: 'x' } } }] },
      ],
    });
    const issued = [{ calls: [{ name: 'read', args: { path: 'a' } }], signature: 'sig-1' }];
    expect(requestError(body(call), issued)).toMatch(/missing a thought_signature/);
    expect(requestError(body({ ...call, thoughtSignature: 'sig-2' }), issued)).toBe(
      'Thought signature is not valid.',
    );
    expect(requestError(body({ ...call, thoughtSignature: 'sig-1' }), issued)).toBeUndefined();
  });

  it('refuses a call left unanswered and a response that answers no call', () => {
    const unanswered = {
      contents: [
        { role: 'user', parts: [{ text: 'go' }] },
        {
          role: 'model',
          parts: [{ functionCall: { name: 'a', args: {} } }, { functionCall: { name: 'b', args: {} } }],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'a', response: {} } }] },
      ],
    };
    expect(requestError(unanswered, [])).toMatch(/number of function response parts is equal/);
    const stray = {
      contents: [{ role: 'user', parts: [{ functionResponse: { name: 'a', response: {} } }] }],
    };
    expect(requestError(stray, [])).toMatch(/immediately after a function call turn/);
  });
});

describe('GeminiRequester against the fake', () => {
  let fake: FakeGemini | undefined;
  afterEach(async () => {
    await fake?.close();
  });
  const settings = (url: string, apiKey: string): ModelSettings & { apiKey: string } => ({
    provider: 'gemini',
    keyVariable: 'GEMINI_API_KEY',
    baseURL: url,
    apiKey,
    model: 'gemini-2.5-flash',
    contextWindow: DEFAULT_CONTEXT_WINDOW,
    maxRetries: 0,
  });

  it('a cancel mid-stream is an AbortError', async () => {
    fake = await startFakeGemini([{ kind: 'hang', afterText: 'partial' }]);
    const requester = new GeminiRequester({
      settings: settings(fake.url, 'test-key'),
      model: 'gemini-2.5-flash',
      acceptsMedia: false,
      redact: (t) => t,
    });
    const abort = new AbortController();
    const pending = requester.complete({
      messages: [{ role: 'user', text: 'hi' }],
      tools: [],
      signal: abort.signal,
      onText: () => abort.abort(),
    });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
