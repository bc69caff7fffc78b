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
    ['command = npx', 1, 'invalid value'],
    ['a = "x"\na = "y"', 2, 'redefine'],
    ['[t]\n[t]', 2, 'redefine'],
    ['a = "open', 1, 'unfinished string'],
    ['a = 1 b = 2', 1, 'end-of-line'],
    ['a = [1 2]', 1, 'expected comma'],
    ['a = "\\q"', 1, 'escape'],
    ['t = { a = 1 }\n[t]', 2, 'redefine'],
    ['[a\nb = 1', 1, 'illegal character'],
  ])('refuses %j at line %i (%s)', (text, line, reason) => {
    let caught: unknown;
    try {
      parseToml(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TomlError);
    expect((caught as TomlError).line).toBe(line);
    expect((caught as TomlError).message).toMatch(new RegExp(`^line ${line}: .*${reason}`));
    expect((caught as TomlError).message).not.toContain('\n');
  });

  it('turns dates into their text', () => {
    expect(parseToml('d = 1979-05-27')).toEqual({ d: '1979-05-27' });
  });
});
