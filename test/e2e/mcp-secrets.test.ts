// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are the ${VAR} references under test.
/**
 * Values mcp.json takes from the environment (`${VAR}`) never reach the terminal, the model or the
 * server logs through a server's error text: a stdio start failure names the command as written,
 * a remote URL's userinfo and query are hidden, and a server's error quoting its credential shows
 * the variable instead — in `mcp list`, `mcp call`, a print-mode run and `.geekagent/logs`.
 */

import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliFixture, FIXTURE_SERVERS, parseJsonOutput } from './harness.js';

const fx = cliFixture();

/** Secret-looking values, none of which may be printed, sent to the model or logged. */
const SECRETS = {
  MISSING_DIR: '/tmp/vault-s3cr3t-7c1e9b',
  PW: 'pw-s3cret-77',
  KEY: 'qk-s3cret-88',
  // Not named like a secret (KEY/TOKEN/...): only the server's own redaction can hide it.
  MY_UPSTREAM_CRED: 'cred-s3cret-4242',
};

function expectNoSecret(text: string): void {
  for (const [name, value] of Object.entries(SECRETS)) expect(text, `${name} leaked`).not.toContain(value);
  expect(text).not.toContain('s3cr');
}

let http: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (http ? http.close(resolve) : resolve(undefined)));
  http = undefined;
});

/** A real HTTP server that answers every request with an error quoting what it was sent. */
async function echoingServer(): Promise<number> {
  http = createServer((request, response) => {
    response.writeHead(500, { 'content-type': 'text/plain' });
    response.end(`cannot serve ${request.url} for ${request.headers.authorization ?? 'nobody'}`);
  });
  await new Promise<void>((resolve) => http!.listen(0, '127.0.0.1', resolve));
  return (http.address() as AddressInfo).port;
}

const CARELESS = {
  command: 'node',
  args: [path.join(FIXTURE_SERVERS, 'careless.mjs'), '--auth', '${MY_UPSTREAM_CRED}'],
  env: { UPSTREAM_AUTH: '${MY_UPSTREAM_CRED}' },
};

describe('secrets from the environment in MCP error text', () => {
  it('mcp list names the failed servers, the command and address as written, no values', async () => {
    const port = await echoingServer();
    await fx.project.mcpServers({
      locked: { command: '${MISSING_DIR}/server' },
      creds: { type: 'http', url: `http://user:\${PW}@127.0.0.1:${port}/mcp?key=\${KEY}` },
    });
    const json = await fx.run(['mcp', 'list', '--json'], { env: SECRETS });
    expect(json.code).toBe(1);
    expect(json.stderr).toBe('geekagent mcp list: failed to connect: locked, creds\n');
    expectNoSecret(json.stdout);
    const [locked, creds] = JSON.parse(json.stdout) as Array<Record<string, string>>;
    expect(locked).toMatchObject({
      name: 'locked',
      status: 'failed',
      error: 'command not found: ${MISSING_DIR}/server (no such file; install it or use an absolute path)',
    });
    expect(creds).toMatchObject({ name: 'creds', status: 'failed' });
    expect(creds!.error).toContain(`http://***@127.0.0.1:${port}/mcp?***`);

    const text = await fx.run(['mcp', 'list'], { env: SECRETS });
    expectNoSecret(text.stdout + text.stderr);
    expect(text.stdout).toContain('× locked: command not found: ${MISSING_DIR}/server (no such file');
    expect(text.stdout).toContain('× creds: ');
  });

  it('mcp call shows a server error quoting its credential with ${VAR}; its log shows no value', async () => {
    await fx.project.mcpServers({ careless: CARELESS });
    const call = await fx.run(['mcp', 'call', 'careless', 'check'], { env: SECRETS });
    expect([call.code, call.stderr]).toEqual([
      1,
      'MCP server careless returned an error for tools/call "check": MCP error -32603: upstream refused the credential ${MY_UPSTREAM_CRED}\n',
    ]);
    const log = await readFile(path.join(fx.project.dir, '.geekagent', 'logs', 'careless.log'), 'utf8');
    expect(log).toContain('careless: started with --auth ${MY_UPSTREAM_CRED}\n');
    expectNoSecret(log);
  });

  it('a print-mode run: the tool error the model and the person see carries no value', async () => {
    await fx.project.mcpServers({ careless: CARELESS });
    fx.fake.push({ toolCalls: [{ name: 'mcp_careless_check', arguments: '{}' }] }, { text: 'checked' });
    const run = await fx.run(
      ['-p', 'check the login', '--output-format', 'json', '--allow', 'mcp_careless_*'],
      {
        env: SECRETS,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out.tool_calls[0]).toMatchObject({
      name: 'mcp_careless_check',
      is_error: true,
      result:
        'MCP server careless returned an error for tools/call "check": MCP error -32603: upstream refused the credential ${MY_UPSTREAM_CRED}',
    });
    expectNoSecret(run.stdout + run.stderr);
    expectNoSecret(JSON.stringify(fx.fake.requests.map((request) => request.body)));
  });
});
