import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isModelSetting, readModelDotEnv, withDotEnvSettings } from '../../../src/config/dotenv.js';
import {
  knownContextWindow,
  modelAcceptsMedia,
  resolveModelSettings,
  SettingsError,
} from '../../../src/config/model-settings.js';
import { missingKeyMessage, modelSetupLines } from '../../../src/config/model-setup.js';

describe('resolveModelSettings', () => {
  it('falls back to the DeepSeek defaults', () => {
    expect(resolveModelSettings({}, {})).toEqual({
      provider: 'openai',
      keyVariable: 'OPENAI_API_KEY',
      baseURL: 'https://api.deepseek.com',
      apiKey: undefined,
      model: 'deepseek-v4-flash',
      contextWindow: 128_000,
      maxRetries: 2,
      requestTimeoutMs: 120_000,
      acceptsMedia: false,
    });
  });

  it('reads the OPENAI_* and GEEKAGENT_* variables', () => {
    const settings = resolveModelSettings(
      {
        OPENAI_BASE_URL: 'http://localhost:11434/v1',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_MODEL: 'llama3.1:8b',
        GEEKAGENT_CONTEXT_WINDOW: '8192',
        GEEKAGENT_MAX_RETRIES: '0',
        GEEKAGENT_ACCEPTS_MEDIA: '1',
        GEEKAGENT_REQUEST_TIMEOUT: '300',
      },
      {},
    );
    expect(settings).toEqual({
      provider: 'openai',
      keyVariable: 'OPENAI_API_KEY',
      baseURL: 'http://localhost:11434/v1',
      apiKey: 'sk-test',
      model: 'llama3.1:8b',
      contextWindow: 8192,
      maxRetries: 0,
      requestTimeoutMs: 300_000,
      acceptsMedia: true,
    });
  });

  it('lets flags override the environment', () => {
    const env = { OPENAI_BASE_URL: 'http://env/v1', OPENAI_MODEL: 'deepseek-chat' };
    const settings = resolveModelSettings(env, { model: 'gpt-4.1', baseURL: 'http://flag/v1' });
    expect(settings.model).toBe('gpt-4.1');
    expect(settings.baseURL).toBe('http://flag/v1');
    expect(settings.contextWindow).toBe(1_047_576);
    expect(settings.acceptsMedia).toBe(true);
  });

  it('treats empty values as unset', () => {
    const settings = resolveModelSettings(
      {
        OPENAI_API_KEY: '',
        OPENAI_MODEL: ' ',
        GEEKAGENT_CONTEXT_WINDOW: '',
        GEEKAGENT_MAX_RETRIES: ' ',
        GEEKAGENT_REQUEST_TIMEOUT: '',
      },
      {},
    );
    expect(settings.apiKey).toBeUndefined();
    expect(settings.model).toBe('deepseek-v4-flash');
    expect(settings.contextWindow).toBe(128_000);
    expect(settings.maxRetries).toBe(2);
    expect(settings.requestTimeoutMs).toBe(120_000);
  });

  it('refuses unparsable or out-of-range numbers, naming the variable and the range', () => {
    const failure = (env: NodeJS.ProcessEnv) => {
      try {
        resolveModelSettings(env, {});
      } catch (error) {
        expect(error).toBeInstanceOf(SettingsError);
        return (error as Error).message;
      }
      throw new Error('expected a SettingsError');
    };
    expect(failure({ GEEKAGENT_CONTEXT_WINDOW: 'lots' })).toBe(
      'GEEKAGENT_CONTEXT_WINDOW must be a whole number from 1 to 100000000, got "lots"',
    );
    expect(failure({ GEEKAGENT_CONTEXT_WINDOW: '0' })).toMatch(/from 1 to/);
    expect(failure({ GEEKAGENT_MAX_RETRIES: '-1' })).toBe(
      'GEEKAGENT_MAX_RETRIES must be a whole number from 0 to 100, got "-1"',
    );
    expect(failure({ GEEKAGENT_MAX_RETRIES: '1e3' })).toMatch(/^GEEKAGENT_MAX_RETRIES/);
    expect(failure({ GEEKAGENT_REQUEST_TIMEOUT: '0' })).toBe(
      'GEEKAGENT_REQUEST_TIMEOUT must be a number of seconds from 0.001 to 2147483, got "0"',
    );
    // 2147484 s is past what a Node timer holds: it would fire after 1 ms.
    expect(failure({ GEEKAGENT_REQUEST_TIMEOUT: '2147484' })).toMatch(/^GEEKAGENT_REQUEST_TIMEOUT/);
    expect(failure({ GEEKAGENT_REQUEST_TIMEOUT: '2m' })).toMatch(/got "2m"$/);
  });

  it('reads GEEKAGENT_REQUEST_TIMEOUT in seconds, decimals allowed', () => {
    expect(resolveModelSettings({ GEEKAGENT_REQUEST_TIMEOUT: '0.25' }, {}).requestTimeoutMs).toBe(250);
    expect(resolveModelSettings({ GEEKAGENT_REQUEST_TIMEOUT: '2147483' }, {}).requestTimeoutMs).toBe(
      2_147_483_000,
    );
  });

  it('GEEKAGENT_ACCEPTS_MEDIA=0 turns media off for a vision model', () => {
    expect(
      resolveModelSettings({ OPENAI_MODEL: 'gpt-4o', GEEKAGENT_ACCEPTS_MEDIA: '0' }, {}).acceptsMedia,
    ).toBe(false);
  });

  it('knows the context windows and media support of common families', () => {
    expect(knownContextWindow('gpt-4o-mini')).toBe(128_000);
    expect(knownContextWindow('qwen2.5-coder:32b')).toBe(131_072);
    expect(knownContextWindow('Meta-Llama-3.1-70B')).toBe(131_072);
    expect(knownContextWindow('some-unknown-model')).toBe(128_000);
    expect(modelAcceptsMedia('qwen-vl-max')).toBe(true);
    expect(modelAcceptsMedia('qwen-max')).toBe(false);
    expect(modelAcceptsMedia('llava:13b')).toBe(true);
  });

  it('names the variable, and advises .env only for a variable .env may set', () => {
    expect(missingKeyMessage('OPENAI_API_KEY')).toBe(
      "OPENAI_API_KEY is not set: export it or add it to a trusted folder's .env (see .env.example)",
    );
    // A models.json entry's own keyVariable: .env would never provide it.
    expect(isModelSetting('FAKE_KEY')).toBe(false);
    expect(missingKeyMessage('FAKE_KEY')).toMatch(/^FAKE_KEY is not set: export it in the shell/);
    expect(missingKeyMessage('FAKE_KEY')).not.toContain('add it to');
  });

  it("the setup lines name the default endpoint as DeepSeek's and give each provider", () => {
    const settings = resolveModelSettings({}, {});
    const text = modelSetupLines(settings, '/home/me/.geekagent/models.json').join('\n');
    expect(text).toContain(
      "The default is DeepSeek's endpoint: https://api.deepseek.com, model deepseek-v4-flash.",
    );
    for (const variable of ['OPENAI_API_KEY=', 'ANTHROPIC_API_KEY=', 'GEMINI_API_KEY=', 'OPENAI_BASE_URL='])
      expect(text).toContain(variable);
    expect(text).toContain('/home/me/.geekagent/models.json');
  });
});

describe('readModelDotEnv', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'geekagent-dotenv-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('fills unset model settings from .env without overriding the real environment', async () => {
    await writeFile(
      path.join(dir, '.env'),
      '# model\nOPENAI_API_KEY=from-file\nOPENAI_MODEL="qwen-max"\nOPENAI_BASE_URL=http://file/v1\n',
    );
    const env: NodeJS.ProcessEnv = { OPENAI_BASE_URL: 'http://real/v1' };
    const merged = withDotEnvSettings(env, readModelDotEnv(dir));
    expect(merged).toEqual({
      OPENAI_BASE_URL: 'http://real/v1',
      OPENAI_API_KEY: 'from-file',
      OPENAI_MODEL: 'qwen-max',
    });
    expect(env).toEqual({ OPENAI_BASE_URL: 'http://real/v1' });
    expect(resolveModelSettings(merged, {}).apiKey).toBe('from-file');
  });

  it('takes only OPENAI_* and GEEKAGENT_* settings, never GEEKAGENT_HOME or trust keys', async () => {
    await writeFile(
      path.join(dir, '.env'),
      [
        'NODE_OPTIONS=--require ./evil.cjs',
        'PATH=/evil',
        'GEEKAGENT_HOME=/tmp/evil',
        'GEEKAGENT_TRUST=1',
        'GEEKAGENT_MAX_RETRIES=5',
        'OPENAI_MODEL=m',
        'openai_model=lower',
        '',
      ].join('\n'),
    );
    expect(readModelDotEnv(dir)).toEqual({ GEEKAGENT_MAX_RETRIES: '5', OPENAI_MODEL: 'm' });
  });

  it('is empty when there is no .env', () => {
    expect(readModelDotEnv(dir)).toEqual({});
  });

  it('survives a malformed .env, keeping the lines it can read', async () => {
    await writeFile(
      path.join(dir, '.env'),
      'this is not an assignment\n=novalue\nOPENAI_MODEL=yes\nQUOTE="unterminated\n',
    );
    expect(() => readModelDotEnv(dir)).not.toThrow();
    expect(readModelDotEnv(dir).OPENAI_MODEL).toBe('yes');
  });

  it('ignores a .env that is a directory', async () => {
    await mkdir(path.join(dir, '.env'));
    expect(readModelDotEnv(dir)).toEqual({});
  });
});
