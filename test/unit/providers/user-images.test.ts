/**
 * A user message's images in each API's wire format (Chat Completions image_url data URL,
 * Anthropic base64 image block, Responses input_image, Gemini inlineData), placeholders for a
 * model that takes no images, and each API's types and size limits.
 */
import { describe, expect, it } from 'vitest';
import { toAnthropicConversation } from '../../../src/providers/anthropic/messages.js';
import { toGeminiContents } from '../../../src/providers/gemini/messages.js';
import { imageProblem } from '../../../src/providers/image-limits.js';
import type { Message } from '../../../src/providers/messages.js';
import { toOpenAIMessages } from '../../../src/providers/openai-chat/messages.js';
import { toResponsesInput } from '../../../src/providers/responses/messages.js';

const image = { name: '@shot.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' };
const history: Message[] = [
  { role: 'system', text: 'sys' },
  { role: 'user', text: 'what is this', context: 'ctx', images: [image] },
];
const placeholder = '[image @shot.png (image/png) not sent: this model does not accept images]';

describe('user images in each wire format', () => {
  it('Chat Completions: text then an image_url data URL; a placeholder without media', () => {
    expect(toOpenAIMessages(history, true)[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'ctx\n\nwhat is this' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      ],
    });
    expect(toOpenAIMessages(history, false)[1]).toEqual({
      role: 'user',
      content: `ctx\n\nwhat is this\n${placeholder}`,
    });
  });

  it('Anthropic: a base64 image block after the text', () => {
    const { messages } = toAnthropicConversation(history, true);
    expect(messages[0]!.content).toEqual([
      { type: 'text', text: 'ctx\n\nwhat is this' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
    ]);
    expect(toAnthropicConversation(history, false).messages[0]!.content).toEqual([
      { type: 'text', text: `ctx\n\nwhat is this\n${placeholder}` },
    ]);
  });

  it('Responses: input_text then input_image', () => {
    const { input } = toResponsesInput(history, true);
    expect(input[0]).toEqual({
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: 'ctx\n\nwhat is this' },
        { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
      ],
    });
    expect(toResponsesInput(history, false).input[0]).toMatchObject({
      content: `ctx\n\nwhat is this\n${placeholder}`,
    });
  });

  it('Gemini: a text part then inlineData', () => {
    const { contents } = toGeminiContents(history, true);
    expect(contents[0]).toEqual({
      role: 'user',
      parts: [
        { text: 'ctx\n\nwhat is this' },
        { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
      ],
    });
    expect(toGeminiContents(history, false).contents[0]!.parts).toEqual([
      { text: `ctx\n\nwhat is this\n${placeholder}` },
    ]);
  });

  it('a message without images is sent as before', () => {
    const plain: Message[] = [{ role: 'user', text: 'hi' }];
    expect(toOpenAIMessages(plain, true)).toEqual([{ role: 'user', content: 'hi' }]);
    expect(toResponsesInput(plain, true).input).toEqual([{ type: 'message', role: 'user', content: 'hi' }]);
  });
});

describe('image limits per API', () => {
  const MB = 1024 * 1024;
  it('types: Gemini takes no GIF, the others do; nobody takes BMP', () => {
    expect(imageProblem('gemini', 'image/gif', 10)).toContain(
      'not an image type this API takes (png, jpeg, webp)',
    );
    expect(imageProblem('anthropic', 'image/gif', 10)).toBeUndefined();
    expect(imageProblem('openai', 'image/bmp', 10)).toContain('not an image type');
  });

  it('sizes: Anthropic 5 MB of base64, OpenAI 20 MB of file, Gemini 20 MB per request', () => {
    expect(imageProblem('anthropic', 'image/png', 3.7 * MB)).toBeUndefined();
    expect(imageProblem('anthropic', 'image/png', 4 * MB)).toMatch(/5\.3 MB is too large: Anthropic/);
    expect(imageProblem('openai', 'image/png', 19 * MB)).toBeUndefined();
    expect(imageProblem('openai-responses', 'image/png', 21 * MB)).toContain(
      'OpenAI takes images up to 20 MB',
    );
    expect(imageProblem('gemini', 'image/png', 8 * MB)).toBeUndefined();
    // The second 8 MB image of a request passes 20 MB of base64 together with the first.
    expect(imageProblem('gemini', 'image/png', 8 * MB, 8 * MB)).toContain('Gemini takes inline images');
    expect(imageProblem('openai', 'image/png', 8 * MB, 15 * MB)).toBeUndefined();
  });
});
