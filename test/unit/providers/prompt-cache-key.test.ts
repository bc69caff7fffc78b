import { describe, expect, it } from 'vitest';
import { promptCacheKeyMode, sendsPromptCacheKey } from '../../../src/providers/prompt-cache-key.js';

describe('prompt_cache_key', () => {
  it('is sent to OpenAI’s own API by default, not to other servers', () => {
    expect(sendsPromptCacheKey('https://api.openai.com/v1')).toBe(true);
    expect(sendsPromptCacheKey('https://API.OpenAI.com/v1/')).toBe(true);
    for (const url of [
      'http://127.0.0.1:8080/v1',
      'https://api.deepseek.com/v1',
      'https://api.openai.com.evil.example/v1',
      'http://api.openai.com/v1',
      'https://openrouter.ai/api/v1',
      'not a url',
    ])
      expect(sendsPromptCacheKey(url), url).toBe(false);
  });

  it('GEEKAGENT_PROMPT_CACHE_KEY turns it on or off anywhere', () => {
    const mode = (value: string | undefined) =>
      promptCacheKeyMode({ GEEKAGENT_PROMPT_CACHE_KEY: value }).mode;
    expect(sendsPromptCacheKey('http://127.0.0.1:8080/v1', mode('1'))).toBe(true);
    expect(sendsPromptCacheKey('https://api.openai.com/v1', mode('0'))).toBe(false);
    expect(mode(undefined)).toBe('auto');
    expect(mode(' On ')).toBe('on');
    expect(mode('false')).toBe('off');
    const odd = promptCacheKeyMode({ GEEKAGENT_PROMPT_CACHE_KEY: 'maybe\u001b[2J' });
    expect(odd.mode).toBe('auto');
    expect(odd.problem).toContain('GEEKAGENT_PROMPT_CACHE_KEY=maybe');
    expect(odd.problem).not.toContain('\u001b');
  });
});
