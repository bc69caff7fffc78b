/**
 * The neutral history as Chat Completions messages (src/providers/openai-chat/messages.ts): tool results
 * right after their assistant turn and images only after the whole run, the summary as a system
 * message, the turn's context before the person's words, and DeepSeek's reasoning_content only on
 * its own tool-call rounds.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/providers/messages.js';
import { SUMMARY_PREFIX } from '../../../src/providers/messages.js';
import { toOpenAIMessages, toOpenAITools } from '../../../src/providers/openai-chat/messages.js';

const image = { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' };
const calls = (...ids: string[]) => ids.map((id) => ({ id, name: 'shot', arguments: '{"a":1}' }));

describe('toOpenAIMessages', () => {
  const history: Message[] = [
    { role: 'system', text: 'be brief' },
    { role: 'summary', text: 'earlier we talked' },
    { role: 'user', text: 'look', context: 'recalled: blue' },
    { role: 'assistant', text: '', toolCalls: calls('c1', 'c2'), reasoning: 'think' },
    { role: 'tool', callId: 'c1', name: 'shot', output: [{ type: 'text', text: 'first' }, image] },
    { role: 'tool', callId: 'c2', name: 'shot', output: 'second', isError: true },
    { role: 'assistant', text: 'done' },
  ];

  it('keeps tool results right after their call and sends images after the whole run', () => {
    const out = toOpenAIMessages(history, true);
    expect(out.map((message) => message.role)).toEqual([
      'system',
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
      'assistant',
    ]);
    expect(out[6]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Images returned by tool shot:' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ],
    });
    expect(out[4]).toMatchObject({ role: 'tool', tool_call_id: 'c1' });
  });

  it('sends no image message to a model that does not see', () => {
    expect(toOpenAIMessages(history, false).map((message) => message.role)).toEqual([
      'system',
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ]);
  });

  it('marks the summary, puts the context first and keeps a tool-call round as calls', () => {
    const out = toOpenAIMessages(history, false);
    expect(out[1]).toEqual({ role: 'system', content: `${SUMMARY_PREFIX}\nearlier we talked` });
    expect(out[2]).toEqual({ role: 'user', content: 'recalled: blue\n\nlook' });
    expect(out[3]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'shot', arguments: '{"a":1}' } },
        { id: 'c2', type: 'function', function: { name: 'shot', arguments: '{"a":1}' } },
      ],
      reasoning_content: 'think',
    });
  });

  it("leaves another API's reasoning out (it came with that API's native state)", () => {
    const out = toOpenAIMessages(
      [
        {
          role: 'assistant',
          text: 'x',
          toolCalls: calls('c1'),
          reasoning: 'their thinking',
          native: { provider: 'anthropic', data: [] },
        },
        { role: 'tool', callId: 'c1', name: 'shot', output: 'ok' },
      ],
      false,
    );
    expect(out[0]).not.toHaveProperty('reasoning_content');
    expect(out[0]).toMatchObject({ content: 'x' });
  });

  it('converts tools to function tools', () => {
    const parameters = { type: 'object', properties: {} };
    expect(toOpenAITools([{ name: 't', description: 'd', parameters }])).toEqual([
      { type: 'function', function: { name: 't', description: 'd', parameters } },
    ]);
  });
});
