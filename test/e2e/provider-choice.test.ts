/**
 * Choosing the model end to end (print mode): named models from the person's models.json
 * (`--model NAME`, `/model NAME` recorded in the session so `--resume` goes on with it), the
 * unknown-provider and broken-file messages, cached input tokens in the JSON usage, the 401 that
 * names the key variable, and a project's `.env` choosing another provider only once trusted.
 * Every provider here is the Chat Completions fake on two URLs: a switch to another API is the
 * same path through the switchable provider (see the report of issue 26 for the cross-provider
 * test to add once those providers are built).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { cliFixture, parseJsonOutput, runCli } from './harness.js';

const fx = cliFixture();
let other: FakeModel;

beforeEach(async () => {
  other = await startFakeModel();
});
afterEach(async () => {
  await other.close();
});

/** Writes the person's models.json (in the run's GEEKAGENT_HOME). */
async function namedModels(value: unknown): Promise<string> {
  const dir = path.join(fx.project.home, '.geekagent');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'models.json');
  await writeFile(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return file;
}

const altEntry = () => ({
  models: { alt: { provider: 'openai', model: 'alt-model', baseURL: other.url, keyVariable: 'ALT_KEY' } },
});

describe('--model NAME', () => {
  it("takes a models.json name's provider, model, base URL and key variable; --base-url still overrides", async () => {
    await namedModels(altEntry());
    other.push({ text: 'from the named model' });
    const run = await fx.run(['-p', 'hi', '--model', 'alt'], { env: { ALT_KEY: 'alt-secret' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('from the named model\n');
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0]!.body.model).toBe('alt-model');
    expect(other.requests[0]!.headers.authorization).toBe('Bearer alt-secret');
    expect(fx.fake.requests).toHaveLength(0);

    fx.fake.push({ text: 'from the flag URL' });
    const flagged = await fx.run(['-p', 'hi', '--model', 'alt', '--base-url', fx.fake.url], {
      env: { ALT_KEY: 'alt-secret' },
    });
    expect(flagged.stdout, flagged.stderr).toBe('from the flag URL\n');
    expect(fx.fake.requests[0]!.body.model).toBe('alt-model');
    expect(other.requests).toHaveLength(1);
  });

  it('is a plain model id for the chosen provider when the file does not name it; a project models.json is never read', async () => {
    await namedModels(altEntry());
    await fx.project.write(
      '.geekagent/models.json',
      JSON.stringify({ models: { planted: altEntry().models.alt } }),
    );
    fx.fake.push({ text: 'plain' });
    const run = await fx.run(['-p', 'hi', '--model', 'planted']);
    expect(run.stdout, run.stderr).toBe('plain\n');
    expect(fx.fake.requests[0]!.body.model).toBe('planted');
    expect(other.requests).toHaveLength(0);
  });

  it("never sends the provider's own key to an entry's other server: it must name its keyVariable", async () => {
    // The harness's OPENAI_API_KEY ("test-key") goes to OPENAI_BASE_URL (fx.fake); `other` is
    // another server (another port: whatever listens there), reached only through the entry.
    const file = await namedModels({
      models: { elsewhere: { provider: 'openai', model: 'm', baseURL: other.url } },
    });
    other.push({ text: 'got the key' });
    const run = await fx.run(['-p', 'hi', '--model', 'elsewhere']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(file);
    expect(run.stderr).toContain('model "elsewhere" has its own baseURL');
    expect(run.stderr).toContain('does not send OPENAI_API_KEY');
    expect(run.stderr).toContain('"keyVariable"');
    expect(other.requests).toHaveLength(0);

    // Mid-session `/model NAME` is refused the same way, and the run stays on its model.
    const switched = await fx.run(['-p', '/model elsewhere']);
    expect(switched.stderr + switched.stdout).toContain('does not send OPENAI_API_KEY');
    expect(other.requests).toHaveLength(0);

    // The same server as the key's own endpoint needs nothing; a named variable is the fix.
    await namedModels({
      models: {
        same: { provider: 'openai', model: 'm', baseURL: fx.fake.url },
        elsewhere: { provider: 'openai', model: 'm', baseURL: other.url, keyVariable: 'OPENAI_API_KEY' },
      },
    });
    fx.fake.push({ text: 'same server' });
    expect((await fx.run(['-p', 'hi', '--model', 'same'])).stdout).toBe('same server\n');
    const fixed = await fx.run(['-p', 'hi', '--model', 'elsewhere']);
    expect(fixed.stdout, fixed.stderr).toBe('got the key\n');
    expect(other.requests[0]!.headers.authorization).toBe('Bearer test-key');
  });

  it("says which variable is missing when the name's key variable is not set", async () => {
    await namedModels(altEntry());
    const run = await fx.run(['-p', 'hi', '--model', 'alt']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('No model configured: ALT_KEY is not set.');
    expect(run.stderr).toContain(
      'Set ALT_KEY in the shell that starts geekagent (a .env file cannot set it)',
    );
    // A .env file could never set it: the advice does not send the person there.
    expect(run.stderr).not.toContain('add it to');
    expect(other.requests).toHaveLength(0);
  });

  it('a broken models.json is named with its field, and the agent still starts', async () => {
    const file = await namedModels({
      models: { alt: { provider: 'claude', model: 'x' }, good: { provider: 'openai', model: 'good-model' } },
    });
    fx.fake.push({ text: 'still here' });
    const run = await fx.run(['-p', 'hi', '--model', 'alt']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('still here\n');
    expect(run.stderr).toContain(
      `geekagent: ${file}: at models.alt.provider: Invalid option: expected one of "openai"|"anthropic"|"openai-responses"|"gemini" — that model is left out\n`,
    );
    // Left out, `alt` is a plain model id; the good entry still works.
    expect(fx.fake.requests[0]!.body.model).toBe('alt');
    fx.fake.push({ text: 'good' });
    expect((await fx.run(['-p', 'hi', '--model', 'good'])).stdout).toBe('good\n');
    expect(fx.fake.requests[1]!.body.model).toBe('good-model');

    await namedModels('{ "models": { "alt": ');
    fx.fake.push({ text: 'again' });
    const syntax = await fx.run(['-p', 'hi']);
    expect(syntax.stdout, syntax.stderr).toBe('again\n');
    expect(syntax.stderr).toMatch(
      /models\.json: invalid JSON at line 1, column \d+: .* — named models are not available this run/,
    );
  });
});

describe('provider choice at start-up', () => {
  it('an unknown --provider or GEEKAGENT_PROVIDER stops with the names there are', async () => {
    const flag = await fx.run(['-p', 'hi', '--provider', 'claude']);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toBe(
      'geekagent: --provider must be one of openai, anthropic, openai-responses, gemini, got "claude"\n',
    );
    const env = await fx.run(['-p', 'hi'], { env: { GEEKAGENT_PROVIDER: 'gpt' } });
    expect(env.code).toBe(1);
    expect(env.stderr).toBe(
      'geekagent: GEEKAGENT_PROVIDER must be one of openai, anthropic, openai-responses, gemini, got "gpt"\n',
    );
    expect(fx.fake.requests).toHaveLength(0);
  });

  it("an untrusted folder's .env cannot switch the provider or its endpoint; a trusted one's does", async () => {
    await fx.project.write(
      '.env',
      `GEEKAGENT_PROVIDER=anthropic\nANTHROPIC_BASE_URL=${other.url}\nANTHROPIC_API_KEY=repo-key\nANTHROPIC_MODEL=repo-claude\n`,
    );
    fx.fake.push({ text: 'on the real provider' });
    const untrusted = await fx.run(['-p', 'hi'], { trusted: false });
    expect(untrusted.code, untrusted.stderr).toBe(0);
    expect(untrusted.stdout).toBe('on the real provider\n');
    expect(untrusted.stderr).toContain('ignoring .env (4 settings)');
    expect(fx.fake.requests[0]!.body.model).toBe('fake-model');
    expect(other.requests).toHaveLength(0);
    const shown = await fx.run(['-p', '/model'], { trusted: false });
    expect(shown.stdout).toContain(`current: openai · fake-model at ${fx.fake.url}`);

    // Trusted: the .env's provider, endpoint and model apply (shown without a request: the
    // Anthropic provider is another part of issue 26).
    const trusted = await fx.run(['-p', '/model']);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stdout).toContain(`current: anthropic · repo-claude at ${other.url}`);
  });
});

describe('/model in print mode', () => {
  it('lists the named models with the current one marked, and a switch goes on with the session on --resume', async () => {
    await namedModels({
      models: { ...altEntry().models, same: { provider: 'openai', model: 'fake-model' } },
    });
    const list = await fx.run(['-p', '/model']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(`current: openai · fake-model at ${fx.fake.url}`);
    expect(list.stdout).toMatch(/^ {2}alt {3}openai · alt-model$/m);
    expect(list.stdout).toMatch(/^\* same {2}openai · fake-model {2}\(current\)$/m);

    fx.fake.push({ text: 'first answer' });
    const first = parseJsonOutput(await fx.run(['-p', 'first question', '--output-format', 'json']));
    const id = (first as unknown as { session_id: string }).session_id;

    const missing = await fx.run(['--resume', id, '-p', '/model alt']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('ALT_KEY is not set');
    expect(missing.stderr).toContain('staying on openai · fake-model');

    const env = { ALT_KEY: 'alt-secret' };
    const switched = await fx.run(['--resume', id, '-p', '/model alt'], { env });
    expect(switched.code, switched.stderr).toBe(0);
    expect(switched.stdout).toBe('switched to alt (openai · alt-model); the conversation goes on\n');

    other.push({ text: 'second answer' });
    const second = await fx.run(['--resume', id, '-p', 'second question'], { env });
    expect(second.stdout, second.stderr).toBe('second answer\n');
    expect(fx.fake.requests).toHaveLength(1);
    const sent = other.requests[0]!.body;
    expect(sent.model).toBe('alt-model');
    expect(sent.messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content])).toEqual([
      ['user', 'first question'],
      ['assistant', 'first answer'],
      ['user', 'second question'],
    ]);

    // An explicit --model wins over the session's choice.
    fx.fake.push({ text: 'third answer' });
    const third = await fx.run(['--resume', id, '-p', 'third', '--model', 'fake-model'], { env });
    expect(third.stdout, third.stderr).toBe('third answer\n');
    expect(other.requests).toHaveLength(1);
  });
});

describe('usage', () => {
  it('reports cached input tokens (prompt_tokens_details.cached_tokens) summed over the turn in the JSON', async () => {
    fx.fake.push(
      { toolCalls: [{ name: 'get_current_time', arguments: '{}' }], usage: usage(1000, 10, 600) },
      { text: 'done', usage: usage(1200, 5, 1000) },
    );
    const out = parseJsonOutput(await fx.run(['-p', 'time?', '--output-format', 'json']));
    expect(out.usage).toEqual({
      prompt_tokens: 2200,
      completion_tokens: 15,
      total_tokens: 2215,
      cached_tokens: 1600,
      // Claude Code's names for the same counts (input_tokens: not read from the cache).
      input_tokens: 600,
      output_tokens: 15,
      cache_read_input_tokens: 1600,
      cache_creation_input_tokens: 0,
    });

    fx.fake.push({ text: 'no cache info' });
    const none = parseJsonOutput(await fx.run(['-p', 'again', '--output-format', 'json']));
    expect(none.usage.cached_tokens).toBe(0);
  });

  it('a 401 names the variable the key came from', async () => {
    fx.fake.push({ kind: 'http_error', status: 401, message: 'Incorrect API key provided' });
    const run = await fx.run(['-p', 'hi']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'model request failed: HTTP 401: Incorrect API key provided — check OPENAI_API_KEY',
    );

    await namedModels(altEntry());
    other.push({ kind: 'http_error', status: 401, message: 'bad key' });
    const named = await runCli(['--trust', '-p', 'hi', '--model', 'alt'], {
      project: fx.project,
      env: { ALT_KEY: 'wrong' },
      trusted: false,
    });
    expect(named.stderr).toContain('HTTP 401: bad key — check ALT_KEY');
  });
});

function usage(prompt: number, completion: number, cached: number) {
  return { prompt_tokens: prompt, completion_tokens: completion, cached_tokens: cached };
}
