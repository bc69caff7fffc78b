/**
 * Attached images through the built CLI, each API against its fake (which refuses a malformed
 * image part as the real API does): `@shot.png`, `--image FILE` and a pasted path reach a model
 * that takes images in that API's format — Chat Completions image_url data URL, Anthropic base64
 * image block, Responses input_image, Gemini inlineData — and stay in the session for
 * `--continue`; a model that does not take images, a type the API refuses and an image over the
 * API's size get a note naming the file and nothing of the image is sent.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_ANTHROPIC_KEY, type FakeAnthropic, startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { type FakeGemini, startFakeGemini } from '../fixtures/fake-gemini.js';
import { type FakeResponses, startFakeResponses } from '../fixtures/fake-responses.js';
import { cliFixture } from './harness.js';

/** A real 1×1 PNG, a real GIF and the start of a JPEG (APIs sniff the first bytes). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const PNG64 = PNG.toString('base64');

const fx = cliFixture();
const media = { GEEKAGENT_ACCEPTS_MEDIA: '1' };

type Part = Record<string, unknown>;
const userContent = (index = 0): string | Part[] =>
  fx.fake.requests[index]!.body.messages.find((m) => m.role === 'user')!.content as string | Part[];

describe('images on Chat Completions', () => {
  it('@shot.png goes as an image_url data URL after the text, and again after --continue', async () => {
    await writeFile(path.join(fx.project.dir, 'shot.png'), PNG);
    fx.fake.push({ text: 'a pixel' }, { text: 'still a pixel' });
    const run = await fx.run(['-p', 'what is in @shot.png'], { env: media });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('attached image @shot.png (image/png, 1 KB)');
    const content = userContent() as Part[];
    expect(content[0]).toMatchObject({ type: 'text' });
    expect(String(content[0]!.text)).toContain('what is in @shot.png');
    expect(content[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG64}` } });

    const again = await fx.run(['--continue', '-p', 'and now?'], { env: media });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.stringify(fx.fake.requests[1]!.body.messages)).toContain(`data:image/png;base64,${PNG64}`);
  });

  it('--image FILE and a pasted path (outside the project, escaped blanks) attach their images', async () => {
    await writeFile(path.join(fx.project.dir, 'flag.gif'), GIF);
    const pasted = path.join(fx.project.home, 'My Shot.png');
    await writeFile(pasted, PNG);
    fx.fake.push({ text: 'gif' }, { text: 'png' });
    const flagged = await fx.run(['-p', 'describe it', '--image', 'flag.gif'], { env: media });
    expect(flagged.code, flagged.stderr).toBe(0);
    expect(flagged.stderr).toContain('attached image flag.gif (image/gif');
    expect((userContent(0) as Part[])[1]).toMatchObject({
      image_url: { url: `data:image/gif;base64,${GIF.toString('base64')}` },
    });
    const run = await fx.run(['-p', `${pasted.replace(/ /g, '\\ ')} what is wrong here?`], { env: media });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`attached image ${pasted}`);
    expect((userContent(1) as Part[])[1]).toMatchObject({
      image_url: { url: `data:image/png;base64,${PNG64}` },
    });
  });

  it('a model that does not take images gets a note instead, and no image is sent', async () => {
    await writeFile(path.join(fx.project.dir, 'shot.png'), PNG);
    fx.fake.push({ text: 'no eyes' });
    const run = await fx.run(['-p', 'what is in @shot.png', '--image', 'shot.png']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      'not attached: @shot.png — the model fake-model does not accept images (GEEKAGENT_ACCEPTS_MEDIA=1 says it does)',
    );
    expect(run.stderr).toContain('not attached: shot.png — the model fake-model');
    const content = userContent();
    expect(typeof content).toBe('string');
    expect(content).toContain('[image @shot.png not attached: the model fake-model does not accept images');
    expect(JSON.stringify(fx.fake.requests[0]!.body)).not.toContain(PNG64);
  });
});

describe('images on the other APIs', () => {
  let anthropic: FakeAnthropic | undefined;
  let responses: FakeResponses | undefined;
  let gemini: FakeGemini | undefined;
  afterEach(async () => {
    await anthropic?.close();
    await responses?.close();
    await gemini?.close();
    anthropic = responses = gemini = undefined;
  });

  it('Anthropic: a base64 image block; an image over 5 MB is refused before sending, naming the limit', async () => {
    anthropic = await startFakeAnthropic();
    const env = {
      GEEKAGENT_PROVIDER: 'anthropic',
      ANTHROPIC_BASE_URL: anthropic.url,
      ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
      ANTHROPIC_MODEL: 'claude-sonnet-4-5',
    };
    await writeFile(path.join(fx.project.dir, 'shot.png'), PNG);
    // A PNG header then 4 MB: 5.3 MB of base64, over Anthropic's 5 MB.
    await writeFile(
      path.join(fx.project.dir, 'huge.png'),
      Buffer.concat([PNG.subarray(0, 16), randomBytes(4 * 1024 * 1024)]),
    );
    anthropic.push({ text: 'a pixel' }, { text: 'too big' });
    const run = await fx.run(['-p', 'look at @shot.png'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(anthropic.requests[0]!.rejected).toBeUndefined();
    const user = (anthropic.requests[0]!.body.messages as Array<{ role: string; content: Part[] }>)[0]!;
    expect(user.content.at(-1)).toMatchObject({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PNG64 },
    });

    const big = await fx.run(['-p', 'and @huge.png'], { env });
    expect(big.code, big.stderr).toBe(0);
    expect(big.stderr).toMatch(
      /not attached: @huge\.png — 5\.3 MB is too large: Anthropic takes images up to 5 MB/,
    );
    expect(JSON.stringify(anthropic.requests[1]!.body)).not.toContain('"type":"image"');
  });

  it('Responses: an input_image part in the user message', async () => {
    responses = await startFakeResponses();
    await writeFile(path.join(fx.project.dir, 'shot.png'), PNG);
    responses.push({ text: 'a pixel' });
    const run = await fx.run(['-p', 'look at @shot.png'], {
      modelUrl: responses.url,
      env: { GEEKAGENT_PROVIDER: 'openai-responses', OPENAI_MODEL: 'gpt-5-mini' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(responses.requests[0]!.rejected).toBeUndefined();
    const user = (responses.requests[0]!.body.input as Part[]).find((item) => item.role === 'user')!;
    expect((user.content as Part[])[1]).toEqual({
      type: 'input_image',
      image_url: `data:image/png;base64,${PNG64}`,
      detail: 'auto',
    });
  });

  it('Gemini: an inlineData part; a GIF, which Gemini does not take, gets a note and is not sent', async () => {
    gemini = await startFakeGemini();
    await writeFile(path.join(fx.project.dir, 'shot.png'), PNG);
    await writeFile(path.join(fx.project.dir, 'flag.gif'), GIF);
    gemini.push({ text: 'a pixel' });
    const run = await fx.run(['-p', 'compare @shot.png with @flag.gif'], {
      env: {
        GEEKAGENT_PROVIDER: 'gemini',
        GOOGLE_GEMINI_BASE_URL: gemini.url,
        GEMINI_API_KEY: 'test-key',
        GEMINI_MODEL: 'gemini-3-pro-preview',
      },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(gemini.requests[0]!.refused).toBeUndefined();
    expect(run.stderr).toContain(
      'not attached: @flag.gif — image/gif is not an image type this API takes (png, jpeg, webp)',
    );
    const parts = gemini.requests[0]!.body.contents![0]!.parts!;
    expect(parts.filter((part) => part.inlineData)).toEqual([
      { inlineData: { mimeType: 'image/png', data: PNG64 } },
    ]);
  });
});
