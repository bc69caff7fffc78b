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

  it('replaces values of 4 or more characters; 4-5 character values only as whole words', () => {
    const redact = createRedactor({
      DEBUG_KEY: '1',
      SHORT_SECRET: '123',
      PIN_PASSWORD: '4821',
      HOST_TOKEN: 'ab-cd',
      EMPTY_KEY: '',
      UNSET_KEY: undefined,
    });
    expect(redact('pin 4821, token ab-cd; 1 and 123 stay')).toBe(
      'pin [REDACTED:PIN_PASSWORD], token [REDACTED:HOST_TOKEN]; 1 and 123 stay',
    );
    // Inside a longer word a short value is something else: 48210 is not the PIN.
    expect(redact('order 48210 x4821y')).toBe('order 48210 x4821y');
    expect(createRedactor({ SIX_KEY: '123456' })('a123456b')).toBe('a[REDACTED:SIX_KEY]b');
  });

  it('never treats switches like true/false/none as secrets', () => {
    const redact = createRedactor({ USE_TOKEN: 'true', CACHE_KEY: 'False', PROXY_PASSWORD: 'none' });
    const text = 'true false none stay as they were';
    expect(redact(text)).toBe(text);
    expect(redact.reach).toBe(0);
  });

  it('head() replaces a secret straddling the cut whole, and reports how far a secret can reach', () => {
    const redact = createRedactor({ API_KEY: 'sk-abcdef-123', DB_PASSWORD: 'hunter2!' });
    expect(redact.reach).toBe('sk-abcdef-123'.length);
    const text = 'hello sk-abcdef-123 world';
    // The cut at 10 falls inside the key: the key is replaced whole, nothing after it is kept.
    expect(redact.head(text, 10)).toBe('hello [REDACTED:API_KEY]');
    expect(redact.head(text, 6)).toBe('hello ');
    expect(redact.head(text, 3)).toBe('hel');
    expect(redact.head(text, 100)).toBe('hello [REDACTED:API_KEY] world');
    expect(redact.head('hunter2! and sk-abcdef-123', 2)).toBe('[REDACTED:DB_PASSWORD]');
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
