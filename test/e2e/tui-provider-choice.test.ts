/**
 * Switching the model in the TUI, in a real pty: the panel shows provider · model and the share
 * of the last prompt read from the cache, the turn summary the turn's; `/model` lists the named
 * models (models.json) and `/model NAME` moves the conversation to another endpoint with its whole
 * history; a name whose key is missing says which variable and keeps the current model.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_ANTHROPIC_KEY, startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { KEYS, type PtySession, tuiFixture } from './pty.js';

const fx = tuiFixture();
let other: FakeModel;

beforeEach(async () => {
  other = await startFakeModel();
});
afterEach(async () => {
  await other.close();
});

function type(screen: PtySession, text: string): void {
  screen.send(text);
  screen.send(KEYS.enter);
}

describe('/model in the TUI', () => {
  it('lists, refuses a model without its key, switches mid-session, and the panel follows', async () => {
    const dir = path.join(fx.project.home, '.geekagent');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'models.json'),
      JSON.stringify({
        models: {
          alt: { provider: 'openai', model: 'alt-model', baseURL: other.url, keyVariable: 'ALT_KEY' },
          nokey: { provider: 'openai', model: 'locked-model', keyVariable: 'UNSET_KEY' },
        },
      }),
    );
    const tui = fx.start({ cols: 120, rows: 40, env: { ALT_KEY: 'alt-secret' } });
    await tui.waitFor('Model openai · fake-model');

    fx.fake.push({
      text: 'first answer',
      usage: { prompt_tokens: 1000, completion_tokens: 20, cached_tokens: 600 },
    });
    type(tui, 'first question');
    await tui.waitFor('first answer');
    await tui.waitFor(/✓ \d+\.\ds · 20 tokens.* · cached 60%/);
    await tui.waitFor('1% used · cached 60%');

    type(tui, '/model');
    await tui.waitFor(/current: openai · fake-model at http:\/\/127\.0\.0\.1:\d+\/v1/);
    await tui.waitFor(/ {2}alt {4}openai · alt-model/);
    await tui.waitFor(/ {2}nokey {2}openai · locked-model/);

    type(tui, '/model nokey');
    await tui.waitFor('UNSET_KEY is not set: export it in the shell');
    await tui.waitFor('staying on openai · fake-model');
    expect(tui.screen()).toContain('Model openai · fake-model');

    type(tui, '/model alt');
    await tui.waitFor('switched to alt (openai · alt-model); the conversation goes on');
    await tui.waitFor('Model openai · alt-model');

    other.push({ text: 'second answer from alt' });
    type(tui, 'second question');
    await tui.waitFor('second answer from alt');
    expect(fx.fake.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(1);
    const sent = other.requests[0]!.body;
    expect(sent.model).toBe('alt-model');
    expect(other.requests[0]!.headers.authorization).toBe('Bearer alt-secret');
    expect(sent.messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content])).toEqual([
      ['user', 'first question'],
      ['assistant', 'first answer'],
      ['user', 'second question'],
    ]);
    // The new endpoint reported no cache reads: the panel no longer shows the old share.
    await tui.waitUntil((screen) => !/% used · cached/.test(screen), 'the panel without a cached share');
  });

  it('/open goes back to the model the opened session was on', async () => {
    const dir = path.join(fx.project.home, '.geekagent');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'models.json'),
      JSON.stringify({
        models: {
          alt: { provider: 'openai', model: 'alt-model', baseURL: other.url, keyVariable: 'OPENAI_API_KEY' },
          main: { provider: 'openai', model: 'fake-model', baseURL: fx.fake.url },
        },
      }),
    );
    const tui = fx.start({ cols: 120, rows: 40 });
    await tui.waitFor(/Session [a-z0-9]{8}/);
    const first = /Session ([a-z0-9]{8})/.exec(tui.screen())![1]!;
    type(tui, '/model alt');
    await tui.waitFor('Model openai · alt-model');
    other.push({ text: 'alt says one' });
    type(tui, 'q one');
    await tui.waitFor('alt says one');

    type(tui, '/new second');
    await tui.waitFor('Session second');
    type(tui, '/model main');
    await tui.waitFor('Model openai · fake-model');
    fx.fake.push({ text: 'main says two' });
    type(tui, 'q two');
    await tui.waitFor('main says two');

    type(tui, `/open ${first}`);
    await tui.waitFor('continuing on alt (openai · alt-model)');
    await tui.waitFor('Model openai · alt-model');
    other.push({ text: 'alt says three' });
    type(tui, 'q three');
    await tui.waitFor('alt says three');
    expect(other.requests).toHaveLength(2);
    expect(fx.fake.requests).toHaveLength(1);
    const thread = other.requests[1]!.body.messages.filter((m) => m.role !== 'system').map((m) => m.content);
    expect(thread).toEqual(['q one', 'alt says one', 'q three']);
  });

  it('moves a session from Chat Completions to Claude and back: tool rounds, thinking and the panel follow', async () => {
    const claude = await startFakeAnthropic();
    try {
      const dir = path.join(fx.project.home, '.geekagent');
      await mkdir(dir, { recursive: true });
      await writeFile(
        path.join(dir, 'models.json'),
        JSON.stringify({
          models: {
            claude: {
              provider: 'anthropic',
              model: 'claude-sonnet-4-5',
              baseURL: claude.url,
              keyVariable: 'ANTHROPIC_API_KEY',
            },
            chat: { provider: 'openai', model: 'fake-model', baseURL: fx.fake.url },
          },
        }),
      );
      await fx.project.write('notes.txt', 'the notes');
      const tui = fx.start({
        cols: 120,
        rows: 40,
        env: { ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY },
        args: ['--allow', 'read'],
      });
      await tui.waitFor('Model openai · fake-model');
      fx.fake.push(
        { toolCalls: [{ name: 'read', arguments: '{"path":"notes.txt"}' }] },
        { text: 'chat has read them' },
      );
      type(tui, 'read the notes');
      await tui.waitFor('chat has read them');

      type(tui, '/model claude');
      await tui.waitFor('switched to claude (anthropic · claude-sonnet-4-5)');
      // The panel's narrow column wraps the model's name.
      await tui.waitFor('Model anthropic ·');
      claude.push(
        {
          reasoning: 'Claude reads again.',
          toolCalls: [{ name: 'read', arguments: '{"path":"notes.txt"}' }],
        },
        { reasoning: 'Same notes.', text: 'claude has read them too' },
      );
      type(tui, 'read them again');
      await tui.waitFor('claude has read them too');

      type(tui, '/model chat');
      await tui.waitFor('Model openai · fake-model');
      fx.fake.push({ text: 'chat is back' });
      type(tui, 'and now');
      await tui.waitFor('chat is back');

      expect(claude.requests.map((request) => request.rejected)).toEqual([undefined, undefined]);
      // Claude got the Chat Completions round as a tool_use/tool_result pair of its own.
      const sent = JSON.stringify(claude.requests[0]!.body.messages);
      expect(sent).toContain('"type":"tool_use"');
      expect(sent).toContain('"type":"tool_result"');
      // Back on Chat Completions: both tool rounds in its own shape, no Claude state in it.
      const back = fx.fake.requests.at(-1)!.body.messages;
      expect(back.filter((m) => m.role === 'tool')).toHaveLength(2);
      expect(JSON.stringify(back)).not.toMatch(/signature|reasoning_content|Claude reads again/);
    } finally {
      await claude.close();
    }
  });
});
