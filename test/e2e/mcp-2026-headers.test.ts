/**
 * Over Streamable HTTP a 2026-07-28 request names its method and target in headers
 * (`Mcp-Method`, `Mcp-Name`) so gateways can route without reading the body. The SDK sets them;
 * this pins that they survive our own layers (the OAuth fetch every remote server goes through),
 * against the SDK v2 HTTP fixture, through the built CLI.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';
import { cliFixture } from './harness.js';

const HTTP_2026 = path.join(REPO_ROOT, 'test', 'fixtures', 'mcp2026', 'http-2026.mjs');
const fx = cliFixture();
let server: ChildProcess | undefined;

afterEach(() => {
  server?.kill();
  server = undefined;
});

async function startHttp(env: Record<string, string>): Promise<string> {
  server = spawn(process.execPath, [HTTP_2026], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for await (const line of createInterface({ input: server.stdout! })) {
    const match = /^listening (\S+)$/.exec(line);
    if (match) return match[1]!;
  }
  throw new Error('http-2026.mjs exited before listening');
}

describe('2026-07-28 request headers over HTTP', () => {
  it('every request carries Mcp-Method, and a tools/call Mcp-Name with the tool', async () => {
    const log = path.join(fx.project.dir, 'headers.log');
    const url = await startHttp({ HEADERS_LOG: log });
    await fx.project.mcpServers({ h26: { type: 'http', url } });
    const call = await fx.run(['mcp', 'call', 'h26', 'echo', '{"text":"hi"}']);
    expect(call.stdout.trim(), call.stderr).toBe('echo: hi (modern era)');
    const lines = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
    expect(lines).toContain('tools/call mcp-method=tools/call mcp-name=echo');
    expect(lines).toContain('tools/list mcp-method=tools/list mcp-name=');
    for (const line of lines) expect(line).toMatch(/^(\S+) mcp-method=\1 /);
  });
});
