/**
 * MCP prompt commands go through the server's connection like tool calls do (issue 31): a prompt
 * of a server that never answers ends at the server's configured timeout with a message naming
 * the server, the prompt and the fix (not after the SDK's own 60 s, not never); a prompt of a
 * server that starts lazily from its cached listing starts it and becomes the user turn.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFixture, FIXTURE_SERVERS } from './harness.js';

const PROMPTS = path.join(FIXTURE_SERVERS, 'prompts.mjs');
const fx = cliFixture();
const mcpJson = () => path.join(fx.project.dir, '.geekagent', 'mcp.json');

async function starts(dir: string): Promise<number> {
  const text = await readFile(path.join(dir, 'starts'), 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).length;
}

const userMessage = (index: number) =>
  String(fx.fake.requests[index]!.body.messages.find((m) => m.role === 'user')?.content ?? '');

describe('MCP prompt commands through the connection', () => {
  it('a prompt the server never answers ends at the configured timeout, naming server and prompt', async () => {
    await fx.project.mcpServers({ slow: { command: process.execPath, args: [PROMPTS], timeout: 1000 } });
    const run = await fx.run(['-p', '/mcp__slow__hang']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `/mcp__slow__hang: MCP server slow did not answer prompts/get "hang" within 1 s; the request was cancelled (raise "timeout" for slow in ${mcpJson()} if it needs longer)`,
    );
    expect(fx.fake.requests).toHaveLength(0);
  });

  it('a prompt of an idle server (cached listing) starts it and sends the prompt as the user turn', async () => {
    const dir = path.join(fx.project.dir, 'srv');
    await mkdir(dir, { recursive: true });
    await fx.project.mcpServers({ lazy: { command: process.execPath, args: [PROMPTS, dir] } });
    fx.fake.push({ text: 'listed' });
    const first = await fx.run(['-p', 'hello']);
    expect(first.code, first.stderr).toBe(0);
    expect(await starts(dir)).toBe(1);

    // From the cache: the command exists, the server is idle until the prompt needs it.
    const idle = await fx.run(['-p', '/mcp']);
    expect(idle.stdout).toContain('idle');
    expect(await starts(dir)).toBe(1);

    fx.fake.push({ text: 'greeted' });
    const run = await fx.run(['-p', '/mcp__lazy__greet Ada']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('greeted\n');
    expect(await starts(dir)).toBe(2);
    expect(userMessage(1)).toBe('Hello, Ada!');
  });
});
