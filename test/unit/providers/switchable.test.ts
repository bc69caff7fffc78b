import { describe, expect, it } from 'vitest';
import {
  resolveModelSettings,
  SettingsError,
  switchedModelSettings,
} from '../../../src/config/model-settings.js';
import type { NamedModel } from '../../../src/config/named-models.js';
import type { Message } from '../../../src/providers/messages.js';
import { toOpenAIMessages } from '../../../src/providers/openai-chat/messages.js';
import { SwitchableProvider } from '../../../src/providers/switchable.js';
import type { ChatProvider, ChatRound } from '../../../src/providers/types.js';

function fakeProvider(name: ChatProvider['name'], model: string): ChatProvider & { calls: number } {
  const provider = {
    name,
    model,
    contextWindow: model.length * 1000,
    acceptsMedia: false,
    calls: 0,
    async complete(): Promise<ChatRound> {
      provider.calls++;
      return {
        text: model,
        reasoning: '',
        toolCalls: [],
        usage: undefined,
        stop: { reason: 'end_turn', detail: 'finish_reason: stop' },
      };
    },
  };
  return provider;
}

describe('SwitchableProvider', () => {
  it('answers for the current provider and sends the next request to the one switched to', async () => {
    const first = fakeProvider('openai', 'a');
    const second = fakeProvider('anthropic', 'claude-x');
    const switchable = new SwitchableProvider(first);
    const request = { messages: [], tools: [], signal: new AbortController().signal };
    expect((await switchable.complete(request)).text).toBe('a');
    switchable.switchTo(second);
    expect([switchable.name, switchable.model, switchable.contextWindow]).toEqual([
      'anthropic',
      'claude-x',
      8000,
    ]);
    expect((await switchable.complete(request)).text).toBe('claude-x');
    expect([first.calls, second.calls]).toEqual([1, 1]);
  });
});

describe('Chat Completions after another provider', () => {
  it("leaves out another provider's native state (thinking signatures) and keeps the conversation", () => {
    const messages: Message[] = [
      { role: 'user', text: 'hi' },
      {
        role: 'assistant',
        text: '',
        toolCalls: [{ id: 'toolu_1', name: 'read', arguments: '{}' }],
        native: { provider: 'anthropic', data: { thinking: [{ signature: 'sig-secret' }] } },
      },
      { role: 'tool', callId: 'toolu_1', name: 'read', output: 'file text' },
      { role: 'assistant', text: 'done', native: { provider: 'gemini', data: { thoughtSignature: 'x' } } },
    ];
    const sent = toOpenAIMessages(messages, false);
    expect(JSON.stringify(sent)).not.toMatch(/sig-secret|thoughtSignature|native/);
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });
});

describe('named models in the settings', () => {
  const named = new Map<string, NamedModel>([
    [
      'claude',
      { provider: 'anthropic', model: 'claude-opus-4-1', keyVariable: 'WORK_KEY', contextWindow: 500_000 },
    ],
  ]);
  const env = {
    OPENAI_API_KEY: 'o',
    OPENAI_BASE_URL: 'http://o.test/v1',
    WORK_KEY: 'w',
    ANTHROPIC_BASE_URL: 'http://a.test',
  };

  it('--model NAME takes the entry; --provider and --base-url still override; other names are model ids', () => {
    const chosen = resolveModelSettings(env, { model: 'claude' }, named);
    expect(chosen).toMatchObject({
      provider: 'anthropic',
      name: 'claude',
      model: 'claude-opus-4-1',
      keyVariable: 'WORK_KEY',
      apiKey: 'w',
      baseURL: 'http://a.test',
      contextWindow: 500_000,
    });
    expect(resolveModelSettings(env, { model: 'claude', baseURL: 'http://b.test' }, named).baseURL).toBe(
      'http://b.test',
    );
    expect(resolveModelSettings(env, { model: 'claude', provider: 'openai' }, named).provider).toBe('openai');
    const plain = resolveModelSettings(env, { model: 'gpt-4o' }, named);
    expect(plain).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o',
      apiKey: 'o',
      baseURL: 'http://o.test/v1',
    });
    expect(plain.name).toBeUndefined();
  });

  it('/model NAME: an entry as a whole, or another model id on the same endpoint and key', () => {
    const start = resolveModelSettings(env, { baseURL: 'http://flag.test/v1' }, named);
    expect(switchedModelSettings(env, start, 'claude', named)).toMatchObject({
      provider: 'anthropic',
      apiKey: 'w',
    });
    const id = switchedModelSettings(env, start, 'gpt-4.1', named);
    expect(id).toMatchObject({
      provider: 'openai',
      model: 'gpt-4.1',
      baseURL: 'http://flag.test/v1',
      contextWindow: 1_047_576,
    });
  });
});

describe("a named model's own baseURL and the provider's key", () => {
  const env = { OPENAI_API_KEY: 'o', OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1', ANTHROPIC_API_KEY: 'a' };
  const entry = (baseURL: string, keyVariable?: string): Map<string, NamedModel> =>
    new Map([['m', { provider: 'openai', model: 'x', baseURL, ...(keyVariable ? { keyVariable } : {}) }]]);

  it("is refused at another server than the key's own, loopback included, naming file, model and fix", () => {
    for (const url of ['https://llm.example.com/v1', 'http://localhost:11434/v1', 'http://127.0.0.1:9/v1']) {
      expect(() =>
        resolveModelSettings(env, { model: 'm' }, entry(url), '/home/me/.geekagent/models.json'),
      ).toThrow(
        /^\/home\/me\/\.geekagent\/models\.json: model "m" has its own baseURL \(http.*\) but no keyVariable.*OPENAI_API_KEY.*"keyVariable"/,
      );
    }
    // The same switch mid-session (`/model m`).
    const start = resolveModelSettings(env, {});
    expect(() => switchedModelSettings(env, start, 'm', entry('http://localhost:11434/v1'))).toThrow(
      SettingsError,
    );
  });

  it("is fine at the key's own endpoint (default or its base-URL variable), with a keyVariable, or under --base-url", () => {
    expect(resolveModelSettings(env, { model: 'm' }, entry('https://api.deepseek.com/beta')).apiKey).toBe(
      'o',
    );
    expect(resolveModelSettings(env, { model: 'm' }, entry('http://127.0.0.1:8080/other')).apiKey).toBe('o');
    expect(
      resolveModelSettings(env, { model: 'm' }, entry('http://localhost:1/v1', 'OPENAI_API_KEY')).apiKey,
    ).toBe('o');
    const flagged = resolveModelSettings(
      env,
      { model: 'm', baseURL: 'http://flag.test' },
      entry('http://x.test'),
    );
    expect(flagged.baseURL).toBe('http://flag.test');
    // Same host, another scheme or port: another server.
    expect(() => resolveModelSettings(env, { model: 'm' }, entry('http://api.deepseek.com'))).toThrow(
      SettingsError,
    );
    expect(() => resolveModelSettings(env, { model: 'm' }, entry('http://127.0.0.1:8081/v1'))).toThrow(
      SettingsError,
    );
  });
});
