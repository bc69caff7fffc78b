// Target 1: time-to-first-model-request of the built CLI (`node dist/cli/main.js -p hi`) with 0 vs 20
// demo servers in .geekagent/mcp.json. A tiny in-bench OpenAI-compatible server notes when the first
// POST /v1/chat/completions arrives; ttfr20 − ttfr0 is what 20 servers add to start-up. The SDK
// baseline (target 2's connect of 20) is measured again here, rotated with the CLI runs. The servers
// are `"startup": "eager"` so every run connects them (lazy ones would start from the tool cache:
// bench/lazy-startup.mjs measures that).
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { sdkConnectOnce } from './connect.mjs';
import { cpuSoFar } from './cpu.mjs';
import { CLI, cliEnv, DEMO, firstRequestOnce, median, now, rotate, tempDir } from './lib.mjs';

/** A cold run (nothing cached) waits for every server, not just the start-up grace (issue 45). */
export const WAIT_ALL = { GEEKAGENT_MCP_START_GRACE_MS: '120000' };

const CHUNK = { choices: [{ delta: { content: 'ok' }, finish_reason: 'stop', index: 0 }] };

/** An Anthropic Messages answer `ok` (Claude Code beside us, bench/claude-code.mjs): streamed or whole. */
function anthropicAnswer(body, res) {
  let request = {};
  try {
    request = JSON.parse(body);
  } catch {
    // answered all the same
  }
  const usage = { input_tokens: 1, output_tokens: 1 };
  const message = { id: 'msg_bench', type: 'message', role: 'assistant', model: request.model ?? 'bench' };
  const done = { stop_reason: 'end_turn', stop_sequence: null };
  if (!request.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...message, content: [{ type: 'text', text: 'ok' }], ...done, usage }));
    return;
  }
  const events = [
    [
      'message_start',
      { message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage } },
    ],
    ['content_block_start', { index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'ok' } }],
    ['content_block_stop', { index: 0 }],
    ['message_delta', { delta: done, usage: { output_tokens: 1 } }],
    ['message_stop', {}],
  ];
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(
    events.map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`).join(''),
  );
}

/**
 * The fake model: answers every chat request (OpenAI chat completions; Anthropic Messages, for
 * Claude Code) with `ok`; reports each request.
 */
export async function startModel() {
  let onRequest = () => undefined;
  const server = http.createServer((req, res) => {
    const arrived = now();
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const pathname = req.url.split('?')[0];
      if (req.method === 'POST' && pathname.endsWith('/chat/completions')) {
        onRequest(arrived, body);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`data: ${JSON.stringify(CHUNK)}\n\ndata: [DONE]\n\n`);
      } else if (req.method === 'POST' && pathname === '/v1/messages/count_tokens') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":1}');
      } else if (req.method === 'POST' && pathname === '/v1/messages') {
        onRequest(arrived, body);
        anthropicAnswer(body, res);
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    /** ANTHROPIC_BASE_URL (the SDK adds /v1). */
    anthropicUrl: `http://127.0.0.1:${server.address().port}`,
    // `atRequest` runs as the request ends, before the answer goes out (the client is waiting).
    next: (atRequest = () => ({})) =>
      new Promise((resolve) => (onRequest = (arrived, body) => resolve({ arrived, body, ...atRequest() }))),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

export async function makeProject(servers, startup = 'eager', script = DEMO) {
  const base = await tempDir(`ttfr${servers}${startup}`);
  const dir = path.join(base, 'project');
  const home = path.join(base, 'home');
  await mkdir(path.join(dir, '.geekagent'), { recursive: true });
  await mkdir(home, { recursive: true });
  const mcpServers = Object.fromEntries(
    Array.from({ length: servers }, (_, i) => [
      `demo${i}`,
      { command: process.execPath, args: [script], startup },
    ]),
  );
  await writeFile(path.join(dir, '.geekagent', 'mcp.json'), JSON.stringify({ mcpServers }, null, 2));
  return { dir, home };
}

/**
 * One CLI run: ms from spawn until the first chat request arrived; waits for the CLI to exit.
 * `node` and `cli` default to this Node and this checkout's build (the platform section passes
 * another release's build and Node); with `cpu`, returns { wall, cpu }: the CLI's CPU time until
 * that request as well (bench/cpu.mjs).
 */
export async function ttfrOnce(
  model,
  project,
  servers,
  extraEnv = {},
  { node = process.execPath, cli = CLI, cpu = false } = {},
) {
  const run = await firstRequestOnce(model, node, [cli, '--trust', '-p', 'hi'], {
    cwd: project.dir,
    env: cliEnv(project, model.url, extraEnv),
    atRequest: cpu ? (child) => ({ cpu: cpuSoFar(child.pid) }) : undefined,
    timeoutMs: 30_000,
  });
  if (run.tools !== servers * 2)
    throw new Error(`first request had ${run.tools} MCP tools, expected ${servers * 2}:\n${run.output}`);
  return cpu ? { wall: run.ms, cpu: run.first.cpu } : run.ms;
}

export async function benchStartup({ reps = 5 } = {}) {
  const model = await startModel();
  try {
    const p0 = await makeProject(0);
    const p20 = await makeProject(20);
    // Warm-up (file cache, compile cache, tool cache), waiting for every server as a cold run does not.
    await ttfrOnce(model, p20, 20, WAIT_ALL);
    const samples = await rotate(reps, {
      ttfr0: () => ttfrOnce(model, p0, 0),
      ttfr20: () => ttfrOnce(model, p20, 20),
      sdk: () => sdkConnectOnce(),
    });
    return {
      ttfr0: median(samples.ttfr0),
      ttfr20: median(samples.ttfr20),
      sdk: median(samples.sdk),
      samples,
    };
  } finally {
    await model.close();
  }
}
