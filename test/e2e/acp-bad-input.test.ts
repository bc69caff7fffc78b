/**
 * `geekagent acp` under bad input: malformed JSON-RPC, an unknown session id, a prompt while one
 * runs, and an editor that vanishes mid-turn — protocol errors or a clean exit, never a crash,
 * the session file keeps its lines, and no MCP server is left running.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive, settles, waitFor } from '../helpers/wait.js';
import { editorFixture, markerServer, spawnAcp } from './acp-client.js';
import { cliFixture } from './harness.js';

const fx = cliFixture();
const editor = editorFixture(fx);

describe('geekagent acp with bad input', () => {
  it('answers malformed JSON-RPC with errors and keeps serving', async () => {
    const child = spawnAcp({ project: fx.project, modelUrl: fx.fake.url });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const lines = () =>
      stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    child.stdin.write('{this is not json\n');
    child.stdin.write('[1, 2]\n');
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'session/prompt', params: {} })}\n`);
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } })}\n`,
    );
    await waitFor(() => lines().find((message) => message.id === 2), { what: 'the initialize answer' });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'no/such_method', params: {} })}\n`);
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'session/new', params: { cwd: 'relative/dir', mcpServers: [] } })}\n`,
    );
    await waitFor(() => lines().find((message) => message.id === 4), { what: 'the session/new answer' });
    const byId = (id: number) => lines().find((message) => message.id === id);
    expect(lines().some((message) => message.id === null && 'error' in message)).toBe(true);
    expect(byId(1)).toHaveProperty('error');
    expect(byId(2)).toMatchObject({
      result: { protocolVersion: 1, agentCapabilities: { loadSession: true } },
    });
    expect(byId(3)).toMatchObject({ error: { code: -32601 } });
    expect(byId(4)).toMatchObject({ error: { message: expect.stringContaining('absolute') } });
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(stderr).not.toMatch(/fatal|TypeError|at .*\.cjs/);
  });

  it('refuses an unknown session id and a second prompt while one runs', async () => {
    fx.fake.push({ kind: 'hang', afterText: 'working ' });
    const ed = editor();
    await ed.initialize();
    await expect(ed.prompt('no-such-session', 'hi')).rejects.toMatchObject({ code: -32002 });
    const id = await ed.newSession();
    const first = ed.prompt(id, 'one');
    await waitFor(() => ed.text(id).includes('working'), { what: 'the first turn to stream' });
    await expect(ed.prompt(id, 'two')).rejects.toMatchObject({
      code: -32600,
      message: expect.stringContaining('already running'),
    });
    await ed.connection.agent.notify('session/cancel', { sessionId: id });
    expect(await first).toBe('cancelled');
  });

  it('exits cleanly when the editor vanishes mid-turn: session lines kept, no server left', async () => {
    const marker = path.join(fx.project.dir, 'marker.log');
    fx.fake.push({ kind: 'hang', afterText: 'thinking ' });
    const ed = editor();
    await ed.initialize();
    const id = await ed.newSession([markerServer('demo', marker)]);
    void ed.prompt(id, 'a long question').catch(() => undefined);
    await waitFor(() => ed.text(id).includes('thinking'), { what: 'the turn to stream' });
    const pid = Number(
      (
        await waitFor(
          () => existsSync(marker) && (/started (\d+)/.exec(readFileSync(marker, 'utf8')) ?? undefined),
          {
            what: 'the server',
          },
        )
      )[1],
    );
    // The turn never ends by itself (the model hangs): exit code 0 and the server gone as the agent
    // exits mean closing stdin ended the turn and took the server down.
    expect(await settles(ed.close(), 'the agent to exit after stdin closed')).toBe(0);
    expect(isAlive(pid)).toBe(false);
    const sessions = path.join(fx.project.home, '.geekagent', 'projects');
    const file = findSessionFile(sessions, id);
    expect(readFileSync(file, 'utf8')).toContain('a long question');
  });
});

function findSessionFile(dir: string, id: string): string {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name === `${id}.jsonl`) return path.join(entry.parentPath, entry.name);
  }
  throw new Error(`no session file ${id}.jsonl under ${dir}`);
}
