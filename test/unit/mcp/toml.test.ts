/** The strict TOML subset reader used for Codex's config.toml. */
import { describe, expect, it } from 'vitest';
import { parseToml, TomlError } from '../../../src/mcp/dialects/toml.js';

describe('parseToml', () => {
  it('reads tables, dotted and quoted keys, strings, numbers, booleans, arrays and inline tables', () => {
    const text = [
      '# comment',
      'model = "o3" # trailing',
      '[mcp_servers.docs]',
      'command = "npx"',
      'args = ["-y", \'lit\\eral\', """multi',
      'line"""]',
      'env = { A = "1", "B.C" = \'x\', nested.deep = true }',
      'startup_timeout_sec = 1_000',
      'ratio = 0.5',
      'hex = 0xff',
      'neg = -3e2',
      'enabled = false',
      '[mcp_servers."a.b"]',
      'url = "https://x/\\u00e9\\t"',
      'http_headers.X-Team = "core"',
      'list = [',
      '  1,  # one',
      '  2,',
      ']',
      '[[profiles]]',
      'name = "one"',
      '[[profiles]]',
      'name = "two"',
    ].join('\n');
    expect(parseToml(text)).toEqual({
      model: 'o3',
      mcp_servers: {
        docs: {
          command: 'npx',
          args: ['-y', 'lit\\eral', 'multi\nline'],
          env: { A: '1', 'B.C': 'x', nested: { deep: true } },
          startup_timeout_sec: 1000,
          ratio: 0.5,
          hex: 255,
          neg: -300,
          enabled: false,
        },
        'a.b': { url: 'https://x/é\t', http_headers: { 'X-Team': 'core' }, list: [1, 2] },
      },
      profiles: [{ name: 'one' }, { name: 'two' }],
    });
  });

  it('CRLF line ends and a byte order mark are fine', () => {
    expect(parseToml('\uFEFF[a]\r\nb = "c"\r\n')).toEqual({ a: { b: 'c' } });
  });

  it.each([
    ['command = npx', 1, '"npx" is not a value (strings need quotes)'],
    ['a = "x"\na = "y"', 2, 'key "a" is defined twice'],
    ['[t]\n[t]', 2, 'table [t] is defined twice'],
    ['a = "open', 1, 'unterminated string'],
    ['a = 1 b = 2', 1, 'unexpected "b" after a value'],
    ['a = [1 2]', 1, 'expected "," or "]" in an array'],
    ['d = 1979-05-27', 1, 'dates and times are not supported here'],
    ['a = "\\q"', 1, 'invalid escape "\\q"'],
    ['t = { a = 1 }\n[t]', 2, 'table [t] is defined twice'],
    ['[a\nb = 1', 1, 'expected "]"'],
  ])('refuses %j at line %i: %s', (text, line, message) => {
    let caught: unknown;
    try {
      parseToml(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TomlError);
    expect((caught as TomlError).message).toBe(`line ${line}: ${message}`);
  });
});
