/**
 * `geekagent mcp serve` for clients of both protocol eras, driven by the official SDK v2 client: one
 * pinned to 2026-07-28 (`server/discover`, the per-request envelope, list results with cache
 * hints) and one on the 2025 `initialize` handshake. (mcp-serve.test.ts drives it with a 2025
 * client of SDK v1 in depth.)
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI, createProject, type Project, testEnv } from './harness.js';

let project: Project;
const clients: Client[] = [];

beforeEach(async () => {
  project = await createProject();
  await project.write('notes.txt', 'alpha beta\n');
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await project.cleanup();
});

/** `answer`: the client's person, asked through elicitation (the client declares the capability). */
async function connect(
  mode: 'legacy' | { pin: string },
  answer?: (message: string) => 'accept' | 'decline',
): Promise<Client> {
  const env: Record<string, string> = { GEEKAGENT_SANDBOX: 'off' };
  for (const [key, value] of Object.entries(testEnv({ project }))) if (value !== undefined) env[key] = value;
  const client = new Client(
    { name: 'e2e', version: '1.0.0' },
    { versionNegotiation: { mode }, capabilities: answer ? { elicitation: { form: {} } } : {} },
  );
  if (answer)
    client.setRequestHandler('elicitation/create', async (request) => ({
      action: answer(request.params.message),
    }));
  clients.push(client);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--trust', 'mcp', 'serve'],
      cwd: project.dir,
      env,
      stderr: 'ignore',
    }),
  );
  return client;
}

async function readNotes(client: Client): Promise<string> {
  const result = await client.callTool({ name: 'read', arguments: { path: 'notes.txt' } });
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

describe('geekagent mcp serve, both eras', () => {
  it('a client pinned to 2026-07-28 discovers it, lists with cache hints and calls a tool', async () => {
    const client = await connect({ pin: '2026-07-28' });
    expect(client.getProtocolEra()).toBe('modern');
    const discover = client.getDiscoverResult();
    expect(discover?.supportedVersions).toContain('2026-07-28');
    expect(client.getServerVersion()?.name).toBe('geekagent');
    const listed = (await client.listTools()) as {
      tools: Array<{ name: string }>;
      ttlMs?: number;
      cacheScope?: string;
    };
    expect(listed.tools.map((tool) => tool.name)).toContain('read');
    // The hints the SDK reads off the wire (kept on the result at run time).
    expect(listed.ttlMs).toBe(300_000);
    expect(listed.cacheScope).toBe('private');
    expect(await readNotes(client)).toContain('alpha beta');
    // A client that cannot be asked (no elicitation) is refused with the flag that allows it.
    const write = await client.callTool({ name: 'write', arguments: { path: 'x.txt', content: 'x' } });
    expect(write.isError).toBe(true);
    expect(JSON.stringify(write.content)).toContain('--allow write');
  });

  it("a 2026 client's person is asked through input_required rounds: accepted runs the tool, declined refuses it", async () => {
    const asked: string[] = [];
    const client = await connect({ pin: '2026-07-28' }, (message) => {
      asked.push(message);
      return message.includes('yes.txt') ? 'accept' : 'decline';
    });
    const yes = await client.callTool({ name: 'write', arguments: { path: 'yes.txt', content: 'written' } });
    expect(yes.isError, JSON.stringify(yes.content)).toBeFalsy();
    expect(await readFile(path.join(project.dir, 'yes.txt'), 'utf8')).toBe('written');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('yes.txt');
    expect(asked[0]).toContain('Accept to run it once');

    const no = await client.callTool({ name: 'write', arguments: { path: 'no.txt', content: 'x' } });
    expect(no.isError).toBe(true);
    expect(JSON.stringify(no.content)).toContain('refused: the call of write was declined when asked');
    await expect(stat(path.join(project.dir, 'no.txt'))).rejects.toThrow();
    expect(asked).toHaveLength(2);
  });

  it('a 2025 client still connects with initialize and calls a tool', async () => {
    const client = await connect('legacy');
    expect(client.getProtocolEra()).toBe('legacy');
    expect(client.getNegotiatedProtocolVersion()).toMatch(/^2025-/);
    expect(await readNotes(client)).toContain('alpha beta');
  });
});
