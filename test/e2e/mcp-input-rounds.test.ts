/**
 * Multi round-trip requests (MCP 2026-07-28) without a person to ask, through the built CLI, with
 * the SDK v2 fixture `mrtr.mjs` (its tools, prompt and resource answer `input_required` until the
 * retry carries the answer): print mode declines a form and refuses sampling in one stderr line
 * each while the turn goes on, offers the project folder as a root, answers a prompt's and a
 * resource's rounds too, and a server that never stops asking is stopped after 8 rounds with a
 * message naming the server and the tool, over stdio and Streamable HTTP.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';
import { cliFixture, parseJsonOutput } from './harness.js';

const MRTR = path.join(REPO_ROOT, 'test', 'fixtures', 'mcp2026', 'mrtr.mjs');

const fx = cliFixture();
let methodLog: string;
const httpServers: ChildProcess[] = [];

afterEach(() => {
  for (const server of httpServers.splice(0)) server.kill();
});

/** `mrtr.mjs --http 0`: resolves with its endpoint once it printed its port. */
async function startHttpMrtr(): Promise<string> {
  const child = spawn(process.execPath, [MRTR, '--http', '0'], {
    env: { ...process.env, MCP_FIXTURE_LOG: methodLog },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  httpServers.push(child);
  for await (const line of createInterface({ input: child.stdout! })) {
    if (/^\d+$/.test(line)) return `http://127.0.0.1:${line}/mcp`;
  }
  throw new Error('mrtr.mjs --http exited before printing its port');
}

beforeEach(async () => {
  methodLog = path.join(fx.project.dir, 'methods.log');
  await fx.project.mcpServers({
    m: { command: process.execPath, args: [MRTR], env: { MCP_FIXTURE_LOG: methodLog } },
  });
});

async function logLines(): Promise<string[]> {
  return (await readFile(methodLog, 'utf8').catch(() => '')).split('\n').filter(Boolean);
}

const DECLINED_NOTE =
  'geekagent: MCP server m asked for input ("What is your name?"); declined: nobody can answer in print mode';

function jsonRun(prompt: string, ...extra: string[]) {
  return fx.run(['-p', prompt, '--output-format', 'json', '--allow', 'mcp_m_*', ...extra]);
}

describe('a 2026 server asking for input, in print mode', () => {
  it('a form is declined with one stderr line; the server answers the call and the turn goes on', async () => {
    fx.fake.push({ toolCalls: [{ name: 'mcp_m_ask_name', arguments: '{}' }] }, { text: 'all done' });
    const run = await jsonRun('ask my name');
    const out = parseJsonOutput(run);
    expect(out.tool_calls[0]).toMatchObject({ name: 'mcp_m_ask_name', result: 'declined', is_error: false });
    expect(out.result).toBe('all done');
    expect(run.stderr.split('\n').filter((line) => line.startsWith(DECLINED_NOTE))).toHaveLength(1);
    // Answered in the 2026 way: a retried tools/call, no server-to-client request.
    expect((await logLines()).filter((line) => line === 'tools/call')).toHaveLength(2);
    expect(fx.fake.requests).toHaveLength(2);
  });

  it('with stream-json output the note goes to stderr and stdout stays JSON lines', async () => {
    fx.fake.push({ toolCalls: [{ name: 'mcp_m_ask_name', arguments: '{}' }] }, { text: 'all done' });
    const run = await fx.run(['-p', 'ask my name', '--output-format', 'stream-json', '--allow', 'mcp_m_*']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(lines.at(-1)).toMatchObject({ type: 'result' });
    expect(run.stdout).toContain('declined');
    expect(run.stdout).not.toContain('geekagent:');
    expect(run.stderr).toContain(DECLINED_NOTE);
  });

  it('--accept-elicitation-defaults answers the form with its defaults, and says so', async () => {
    fx.fake.push({ toolCalls: [{ name: 'mcp_m_ask_name', arguments: '{}' }] }, { text: 'ok' });
    const run = await jsonRun('ask my name', '--accept-elicitation-defaults');
    // The form's only field has no default: accepted with nothing filled in.
    expect(parseJsonOutput(run).tool_calls[0]!.result).toBe('hello, ');
    expect(run.stderr).toContain(
      `geekagent: MCP server m asked for input ("What is your name?"); answered with the form's defaults`,
    );
  });

  it('sampling is refused in one line; the call fails naming server, tool and reason; the turn goes on', async () => {
    fx.fake.push(
      { toolCalls: [{ name: 'mcp_m_ask_sample', arguments: '{"prompt":"a haiku"}' }] },
      { text: 'the tool failed' },
    );
    const run = await jsonRun('sample');
    const out = parseJsonOutput(run);
    expect(out.tool_calls[0]!.is_error).toBe(true);
    expect(out.tool_calls[0]!.result).toBe(
      'MCP server m asked for a model completion (sampling) during tools/call "ask_sample", and it was not given: ' +
        'sampling request from m declined: GeekAgent is running non-interactively and nobody can approve it',
    );
    expect(run.stderr).toContain(
      'geekagent: MCP server m asked for a model completion (sampling); refused: nobody can approve it in print mode',
    );
    expect(out.result).toBe('the tool failed');
    // Nothing reached the model for the server: the turn's two requests only.
    expect(fx.fake.requests).toHaveLength(2);
  });

  it('roots are answered with the project folder', async () => {
    const call = await fx.run(['mcp', 'call', 'm', 'ask_roots']);
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout.trim()).toBe(`roots: ${pathToFileURL(fx.project.dir).href}`);
  });

  it('a prompt command and a resource mention go through their rounds too', async () => {
    fx.fake.push({ text: 'greeted' });
    const prompt = await fx.run(['-p', '/mcp__m__greet']);
    expect(prompt.code, prompt.stderr).toBe(0);
    expect(JSON.stringify(fx.fake.requests[0]!.body.messages)).toContain('Say hello to (declined)');
    expect(prompt.stderr).toContain('geekagent: MCP server m asked for input ("Greet whom?"); declined');

    fx.fake.push({ text: 'read it' });
    const mention = await fx.run(['-p', 'what is @m:mrtr://secret']);
    expect(mention.code, mention.stderr).toBe(0);
    expect(JSON.stringify(fx.fake.requests[1]!.body.messages)).toContain('no secret (declined)');
    expect(mention.stderr).toContain('geekagent: MCP server m asked for input ("Passphrase?"); declined');
  });

  it('a server that never stops asking is stopped after 8 rounds, naming the server and the tool', async () => {
    const call = await fx.run(['mcp', 'call', 'm', 'ask_forever']);
    expect(call.code).toBe(1);
    expect(call.stderr).toContain(
      'MCP server m still asked for input after 8 rounds of answers during tools/call "ask_forever" ' +
        '(it last asked for a form "Question 9?"); GeekAgent stopped the request there',
    );
    // The first call and 8 answered retries reached the server; no tenth.
    const rounds = (await logLines()).filter((line) => line.startsWith('ask_forever round'));
    expect(rounds).toEqual(Array.from({ length: 9 }, (_, i) => `ask_forever round ${i + 1}`));

    // In a chat turn the model gets the same message as the tool's error, and the turn goes on.
    fx.fake.push({ toolCalls: [{ name: 'mcp_m_ask_forever', arguments: '{}' }] }, { text: 'gave up' });
    const out = parseJsonOutput(await jsonRun('ask forever'));
    expect(out.tool_calls[0]!.is_error).toBe(true);
    expect(out.tool_calls[0]!.result).toContain('still asked for input after 8 rounds');
    expect(out.result).toBe('gave up');
  });

  it('over Streamable HTTP the rounds and the cap work the same', async () => {
    await fx.project.mcpServers({ h: { type: 'http', url: await startHttpMrtr() } });
    const roots = await fx.run(['mcp', 'call', 'h', 'ask_roots']);
    expect(roots.stdout.trim(), roots.stderr).toBe(`roots: ${pathToFileURL(fx.project.dir).href}`);
    const forever = await fx.run(['mcp', 'call', 'h', 'ask_forever']);
    expect(forever.code).toBe(1);
    expect(forever.stderr).toContain(
      'MCP server h still asked for input after 8 rounds of answers during tools/call "ask_forever"',
    );
    expect((await logLines()).filter((line) => line.startsWith('ask_forever round'))).toHaveLength(9);
  });
});
