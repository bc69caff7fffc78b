// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are the ${VAR} references under test.
import { describe, expect, it } from 'vitest';
import { toConfigEntry } from '../../../src/mcp/config-entry.js';
import { serverRedactor } from '../../../src/mcp/redact.js';
import type { McpServerDefinition } from '../../../src/mcp/server-definition.js';
import { createRedactor } from '../../../src/util/redact.js';

/** One mcp.json entry as the config loader builds it, with `env` as the environment. */
function definition(raw: unknown, env: NodeJS.ProcessEnv, name = 'srv'): McpServerDefinition {
  const entry = toConfigEntry(name, raw, {
    source: 'project',
    file: '/p/.geekagent/mcp.json',
    baseDir: '/p',
    projectDir: '/p',
    env,
  });
  if (entry.kind !== 'ok') throw new Error(entry.error);
  return entry.definition;
}

describe('serverRedactor', () => {
  it('puts ${VAR} back for each value a stdio entry took from the environment', () => {
    const env = { SECRET_DIR: '/opt/s3cr3t-dir', CRED: 'cred-4242-xyz', SHORT: 'ab', MODE: 'on' };
    const stdio = definition(
      {
        command: '${SECRET_DIR}/server',
        args: ['--auth=${CRED}', '${SHORT}', '${MODE}', '${LEVEL:-verbose}'],
        env: { UPSTREAM: '${CRED}' },
      },
      env,
    );
    // Defaults are written in the file: not taken from the environment, not hidden.
    expect(stdio.fromEnv).toEqual([
      { variable: 'SECRET_DIR', value: '/opt/s3cr3t-dir' },
      { variable: 'CRED', value: 'cred-4242-xyz' },
      { variable: 'SHORT', value: 'ab' },
      { variable: 'MODE', value: 'on' },
    ]);
    const redact = serverRedactor(stdio);
    expect(
      redact('command not found: /opt/s3cr3t-dir/server (no such file); upstream said cred-4242-xyz'),
    ).toBe('command not found: ${SECRET_DIR}/server (no such file); upstream said ${CRED}');
    // Short values are left alone: replacing "ab" or "on" would wreck ordinary words.
    expect(redact('turn on the lab at verbose level')).toBe('turn on the lab at verbose level');
  });

  it("hides a remote URL's userinfo and query, as written and as fetch spells it", () => {
    const env = { PW: 'pw s3cret+77', KEY: 'qk-s3cret-88', PATH_TOKEN: 'pt-s3cret-99' };
    const remote = definition(
      { type: 'http', url: 'http://user:${PW}@127.0.0.1:4000/mcp/${PATH_TOKEN}?key=${KEY}&v=2' },
      env,
    );
    if (remote.transport !== 'http') throw new Error('expected http');
    const redact = serverRedactor(remote);
    const parsed = new URL(remote.url).href;
    // The parser percent-encodes the password: that spelling is hidden too.
    expect(parsed).toContain('pw%20s3cret+77');
    for (const text of [remote.url, parsed, `Request cannot be constructed from a URL: ${parsed}`]) {
      const shown = redact(text);
      for (const secret of ['s3cret', 'qk-', 'pt-', 'pw%20'])
        expect(shown, `${text} -> ${shown}`).not.toContain(secret);
      expect(shown).toContain('127.0.0.1:4000/mcp/${PATH_TOKEN}');
    }
    expect(redact(parsed)).toBe('http://***@127.0.0.1:4000/mcp/${PATH_TOKEN}?***');
    // One query value alone (a server echoing the key it refused).
    expect(redact('invalid key qk-s3cret-88')).toBe('invalid key ${KEY}');
  });

  it("hides a remote URL's fragment written out in the file, as `mcp get` masks it", () => {
    const remote = definition(
      { type: 'http', url: 'http://127.0.0.1:4000/mcp#access_token=fr4g-t0ken-55' },
      {},
    );
    const redact = serverRedactor(remote);
    expect(redact('cannot reach http://127.0.0.1:4000/mcp#access_token=fr4g-t0ken-55')).toBe(
      'cannot reach http://127.0.0.1:4000/mcp#***',
    );
  });

  it('hides header values: by ${VAR} when taken from the environment, else whole', () => {
    const remote = definition(
      {
        type: 'http',
        url: 'http://127.0.0.1:4000/mcp',
        headers: { Authorization: 'Bearer ${HT}', 'X-Api-Key': 'literal-key-1234' },
      },
      { HT: 'ht-s3cret-00' },
    );
    const redact = serverRedactor(remote);
    expect(redact('HTTP 401: bad Bearer ht-s3cret-00, key literal-key-1234')).toBe(
      'HTTP 401: bad Bearer ${HT}, key ***',
    );
  });

  it("adds the server's values to the run's redactor; the run's mark stays on a shared value", () => {
    const base = createRedactor({ OPENAI_API_KEY: 'sk-model-12345', GH_TOKEN: 'ghp-shared-777' });
    const stdio = definition(
      { command: 'srv', args: ['${GH_TOKEN}', '${WORKDIR}'] },
      {
        GH_TOKEN: 'ghp-shared-777',
        WORKDIR: '/srv/private-work',
      },
    );
    const redact = serverRedactor(stdio, base);
    expect(redact('sk-model-12345 ghp-shared-777 /srv/private-work/x')).toBe(
      '[REDACTED:OPENAI_API_KEY] [REDACTED:GH_TOKEN] ${WORKDIR}/x',
    );
    // A cut never leaves a prefix of a server's value behind (the log cuts long lines).
    expect(redact.head('at /srv/private-work/x', 8)).toBe('at ${WORKDIR}');
    // A server that took nothing from the environment: the run's redactor itself.
    expect(serverRedactor(definition({ command: 'srv' }, {}), base)).toBe(base);
  });

  it("never hides the server's own name, which every message names", () => {
    const stdio = definition(
      { command: 'srv', args: ['--name', '${SERVICE}'] },
      { SERVICE: 'github-main' },
      'github-main',
    );
    expect(serverRedactor(stdio)('MCP server github-main went away')).toBe(
      'MCP server github-main went away',
    );
  });
});
