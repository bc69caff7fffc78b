// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are the ${VAR} references under test.
import { describe, expect, it } from 'vitest';
import { expandVariables, hasVariableReference } from '../../../src/mcp/expand-vars.js';

describe('expandVariables', () => {
  const env = { HOME: '/home/me', EMPTY: '', TOKEN: 't' };

  it('expands ${VAR}, accepting an empty value', () => {
    expect(expandVariables('${HOME}/bin', env)).toEqual({ ok: true, value: '/home/me/bin' });
    expect(expandVariables('[${EMPTY}]', env)).toEqual({ ok: true, value: '[]' });
  });

  it('uses the default of ${VAR:-d} when the variable is unset or empty', () => {
    expect(expandVariables('${NOPE:-x}|${EMPTY:-y}|${TOKEN:-z}|${NOPE:-}', env)).toEqual({
      ok: true,
      value: 'x|y|t|',
    });
  });

  it('leaves $$, a lone $ and unbraced $VAR alone', () => {
    expect(expandVariables('$$ $ $HOME ${ ${1X} cost$', env)).toEqual({
      ok: true,
      value: '$$ $ $HOME ${ ${1X} cost$',
    });
  });

  it('reports the first unset variable without a default', () => {
    expect(expandVariables('${TOKEN}${GITHUB_TOKEN}${OTHER}', env)).toEqual({
      ok: false,
      variable: 'GITHUB_TOKEN',
    });
  });

  it('does not expand values recursively', () => {
    expect(expandVariables('${A}', { A: '${B}', B: 'no' })).toEqual({ ok: true, value: '${B}' });
  });

  it('detects references', () => {
    expect(hasVariableReference('https://${HOST}/x')).toBe(true);
    expect(hasVariableReference('https://$HOST/x')).toBe(false);
  });
});
