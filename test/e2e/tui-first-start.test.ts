/**
 * The first start in a terminal (issue 41): `geekagent "fix the bug"` opens the session with that
 * message sent, as if typed; a start without a model says so at once, with the lines to copy.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-model.js';
import { KEYS, type PtySession, tuiFixture } from './pty.js';

const fx = tuiFixture();

const userText = (request: RecordedRequest): string =>
  JSON.stringify(request.body.messages.filter((m) => m.role === 'user'));

function type(screen: PtySession, text: string): void {
  screen.send(text);
  screen.send(KEYS.enter);
}

describe('the first start', () => {
  it('geekagent "<prompt>" opens the TUI with the prompt sent, and the answer shows', async () => {
    fx.fake.push({ text: 'The bug was in parse.ts.' });
    const tui = fx.start({ args: ['fix the bug'] });
    await tui.waitFor('The bug was in parse.ts.');
    expect(tui.screen()).toContain('fix the bug');
    expect(fx.fake.requests).toHaveLength(1);
    expect(userText(fx.fake.requests[0]!)).toContain('fix the bug');
    // Still the interactive session: it waits for the next message.
    expect(tui.screen()).toMatch(/›/);
  });

  it('without a key, the session says so at once, naming the default endpoint, with lines to copy', async () => {
    const tui = fx.start({
      env: { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined, OPENAI_MODEL: undefined },
      rows: 40,
      cols: 120,
    });
    await tui.waitFor('No model configured: OPENAI_API_KEY is not set');
    const screen = tui.screen();
    expect(screen).toContain(
      "The default is DeepSeek's endpoint: https://api.deepseek.com, model deepseek-v4-flash.",
    );
    expect(screen).toContain('DeepSeek:   export OPENAI_API_KEY=sk-...');
    expect(screen).toContain('OpenAI:     export GEEKAGENT_PROVIDER=openai-responses OPENAI_API_KEY=sk-...');
    expect(screen).toContain('Anthropic:  export GEEKAGENT_PROVIDER=anthropic ANTHROPIC_API_KEY=');
    expect(screen).toContain('Gemini:     export GEEKAGENT_PROVIDER=gemini GEMINI_API_KEY=');
    expect(screen).toContain(`${fx.project.home}/.geekagent/models.json`);
    expect(fx.fake.requests).toHaveLength(0);
  });

  it('/model reads models.json when used, and says so when a name is not in it', async () => {
    const tui = fx.start({ cols: 140, rows: 40 });
    await tui.waitFor('Model openai · fake-model');
    type(tui, '/model');
    await tui.waitFor('no named models: add them to');

    // Added while the session runs: the next /model sees it.
    const dir = path.join(fx.project.home, '.geekagent');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'models.json'),
      JSON.stringify({ models: { fast: { provider: 'openai', model: 'fast-model' } } }),
    );
    type(tui, '/model nothere');
    await tui.waitFor(/no model named "nothere" in .*models\.json \(named: fast\)/);
    expect(tui.screen()).toContain('Model openai · fake-model');

    type(tui, '/model fast');
    await tui.waitFor('switched to fast (openai · fast-model)');
    await tui.waitFor('Model openai · fast-model');

    // A model id of the current provider, asked for as one.
    type(tui, '/model id:raw-model');
    await tui.waitFor('switched to openai · raw-model');
    fx.fake.push({ text: 'from the raw id' });
    type(tui, 'hello');
    await tui.waitFor('from the raw id');
    expect(fx.fake.requests[0]!.body.model).toBe('raw-model');
  });
});
