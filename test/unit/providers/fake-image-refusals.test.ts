/**
 * The fakes refuse a malformed image part as the real APIs do (type, base64, bytes that are not
 * the named type), so an e2e test that passes shows the request would have been taken.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_ANTHROPIC_KEY, startFakeAnthropic } from '../../fixtures/fake-anthropic.js';
import { startFakeGemini } from '../../fixtures/fake-gemini.js';
import { startFakeModel } from '../../fixtures/fake-model.js';
import { startFakeResponses } from '../../fixtures/fake-responses.js';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const JPEG_AS_PNG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]).toString('base64');
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

describe('the fakes refuse malformed images', () => {
  it('Chat Completions: bytes that are not the named type, a broken data URL', async () => {
    const fake = await startFakeModel([{ text: 'ok' }]);
    closers.push(fake.close);
    const send = (url: string) =>
      post(`${fake.url}/chat/completions`, {
        model: 'm',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'x' },
              { type: 'image_url', image_url: { url } },
            ],
          },
        ],
      });
    const mismatch = await send(`data:image/png;base64,${JPEG_AS_PNG}`);
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain('invalid_image_format');
    const broken = await send('data:image/png;base64,not base64!');
    expect(broken.status).toBe(400);
    expect(broken.text).toContain('invalid_image_url');
  });

  it('Anthropic: the media type and the bytes must agree', async () => {
    const fake = await startFakeAnthropic([{ text: 'ok' }]);
    closers.push(fake.close);
    const send = (media_type: string, data: string) =>
      post(
        `${fake.url}/v1/messages`,
        {
          model: 'claude-sonnet-4-5',
          max_tokens: 100,
          messages: [
            { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type, data } }] },
          ],
        },
        { 'x-api-key': FAKE_ANTHROPIC_KEY, 'anthropic-version': '2023-06-01' },
      );
    const mismatch = await send('image/png', JPEG_AS_PNG);
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain('Image does not match the provided media type image/png');
    const bmp = await send('image/bmp', PNG);
    expect(bmp.text).toContain("Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'");
  });

  it('Responses: an input_image must be a valid image data URL', async () => {
    const fake = await startFakeResponses([{ text: 'ok' }]);
    closers.push(fake.close);
    const result = await post(`${fake.url}/responses`, {
      model: 'gpt-5-mini',
      input: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_image', image_url: `data:image/png;base64,${JPEG_AS_PNG}`, detail: 'auto' },
          ],
        },
      ],
    });
    expect(result.status).toBe(400);
    expect(result.text).toContain('invalid_image_format');
  });

  it('Gemini: no GIF, and bytes that are an image', async () => {
    const fake = await startFakeGemini([{ text: 'ok' }]);
    closers.push(fake.close);
    const send = (mimeType: string, data: string) =>
      post(
        `${fake.url}/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse`,
        { contents: [{ role: 'user', parts: [{ text: 'x' }, { inlineData: { mimeType, data } }] }] },
        { 'x-goog-api-key': 'test-key' },
      );
    expect((await send('image/gif', 'R0lGODlh')).text).toContain('Unsupported MIME type: image/gif');
    expect((await send('image/png', JPEG_AS_PNG)).text).toContain('Unable to process input image');
  });
});
