import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/permissions/redact.js';

describe('createRedactor', () => {
  it('replaces values of KEY/TOKEN/SECRET/PASSWORD variables everywhere they occur', () => {
    const redact = createRedactor({
      OPENAI_API_KEY: 'sk-abc123456',
      GITHUB_TOKEN: 'ghp_tokenvalue',
      client_secret: 'hush-hush-hush',
      DbPassword: 'correct horse',
      HOME: '/home/someone',
    });
    const text =
      'key=sk-abc123456 again sk-abc123456; gh ghp_tokenvalue; s hush-hush-hush; pw correct horse; /home/someone';
    expect(redact(text)).toBe(
      'key=[REDACTED:OPENAI_API_KEY] again [REDACTED:OPENAI_API_KEY]; gh [REDACTED:GITHUB_TOKEN]; ' +
        's [REDACTED:client_secret]; pw [REDACTED:DbPassword]; /home/someone',
    );
  });

  it('matches the variable name case-insensitively and anywhere in the name', () => {
    const redact = createRedactor({
      monkeyBusiness: 'banana-split',
      mytokens: 'abcdefgh',
      PATH: 'abcdefgh-not',
    });
    expect(redact('banana-split')).toBe('[REDACTED:monkeyBusiness]');
    expect(redact('x abcdefgh y')).toBe('x [REDACTED:mytokens] y');
  });

  it('skips values shorter than 6 characters and empty or missing ones', () => {
    const redact = createRedactor({
      DEBUG_KEY: '1',
      USE_TOKEN: 'true',
      SHORT_SECRET: '12345',
      EMPTY_KEY: '',
      UNSET_KEY: undefined,
    });
    const text = '1 true 12345 output stays as it was';
    expect(redact(text)).toBe(text);
    expect(createRedactor({ SIX_KEY: '123456' })('a123456b')).toBe('a[REDACTED:SIX_KEY]b');
  });

  it('replaces a longer value first when it contains another', () => {
    const redact = createRedactor({ A_KEY: 'secret', B_KEY: 'secret-extended', C_KEY: 'xsecretx' });
    expect(redact('secret-extended | secret | xsecretx')).toBe(
      '[REDACTED:B_KEY] | [REDACTED:A_KEY] | [REDACTED:C_KEY]',
    );
  });

  it('treats regex metacharacters in values literally', () => {
    const redact = createRedactor({ API_KEY: 'a.b*c+d?(e)[f]$^|\\' });
    expect(redact('x a.b*c+d?(e)[f]$^|\\ y')).toBe('x [REDACTED:API_KEY] y');
    expect(redact('aXbbbcd')).toBe('aXbbbcd');
  });

  it('labels a value shared by two variables deterministically, and keeps special replacement text', () => {
    const first = createRedactor({ Z_TOKEN: 'shared-value', A_TOKEN: 'shared-value' });
    const second = createRedactor({ A_TOKEN: 'shared-value', Z_TOKEN: 'shared-value' });
    expect(first('shared-value')).toBe('[REDACTED:A_TOKEN]');
    expect(second('shared-value')).toBe('[REDACTED:A_TOKEN]');
    // `$&` in the text must not be read as a replacement pattern.
    expect(first('$& $1 shared-value')).toBe('$& $1 [REDACTED:A_TOKEN]');
  });

  it('returns text unchanged when there are no secrets, and can be reused', () => {
    const none = createRedactor({ HOME: '/home/x', PATH: '/usr/bin' });
    expect(none('/home/x and /usr/bin')).toBe('/home/x and /usr/bin');
    const redact = createRedactor({ API_KEY: 'abcdef-123' });
    // A global regex keeps lastIndex between exec calls; replace must not carry it over.
    for (let i = 0; i < 3; i++) expect(redact('abcdef-123')).toBe('[REDACTED:API_KEY]');
    expect(redact('')).toBe('');
    expect(redact('multi\nline abcdef-123\n')).toBe('multi\nline [REDACTED:API_KEY]\n');
  });
});
