// Issue 40: both protocol eras. Rows E1/E2 — connect + list + one call against a server that
// speaks only 2026-07-28 (test/fixtures/mcp2026/stdio-2026.mjs) and a 2025-only one (the demo
// server), GeekAgent's McpManager (our process-group transport: the `server/discover` probe
// goes in place, a 2025 server answers it with an error and gets `initialize` on the same process)
// vs a plain SDK v2 client with `versionNegotiation: 'auto'` (its StdioClientTransport probes on a
// short-lived sibling process, then starts the server). Row E3 — time to the first model request
// with 20 cached 2026 servers vs none: the cached verdict is the SDK's `prior`, no probe is paid
// and no server spawned.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { agentMcp, DEMO, definition, median, now, ROOT, rotate, sleep } from './lib.mjs';
import { makeProject, startModel, ttfrOnce, WAIT_ALL } from './startup.mjs';

export const STDIO_2026 = path.join(ROOT, 'test', 'fixtures', 'mcp2026', 'stdio-2026.mjs');

const CALLS = {
  modern: { script: STDIO_2026, tool: 'echo', args: { text: 'x' } },
  legacy: { script: DEMO, tool: 'word_count', args: { text: 'a b' } },
};

async function agentOnce(kind) {
  const { script, tool, args } = CALLS[kind];
  const mcp = agentMcp([definition('s', script)]);
  try {
    const t0 = now();
    mcp.manager.start();
    await mcp.manager.whenSettled();
    const connection = mcp.manager.connection('s');
    const era = connection?.era?.kind;
    if (era !== kind) throw new Error(`agent: expected the ${kind} era, got ${era}`);
    const result = await connection.callTool(tool, args);
    if (result.isError) throw new Error(`agent: ${JSON.stringify(result.content)}`);
    return now() - t0;
  } finally {
    await mcp.close();
    await sleep(50);
  }
}

async function sdkOnce(kind) {
  const { script, tool, args } = CALLS[kind];
  const client = new Client(
    { name: 'sdk-baseline', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  try {
    const t0 = now();
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'pipe' }),
    );
    const { tools } = await client.listTools();
    if (!tools.some((t) => t.name === tool)) throw new Error('sdk: tool missing');
    const result = await client.callTool({ name: tool, arguments: args });
    if (result.isError) throw new Error(`sdk: ${JSON.stringify(result.content)}`);
    if (client.getProtocolEra() !== kind) throw new Error(`sdk: expected the ${kind} era`);
    return now() - t0;
  } finally {
    await client.close();
    await sleep(50);
  }
}

export async function benchEras({ reps = 7 } = {}) {
  await agentOnce('modern');
  await sdkOnce('modern');
  const samples = await rotate(reps, {
    agentModern: () => agentOnce('modern'),
    sdkModern: () => sdkOnce('modern'),
    agentLegacy: () => agentOnce('legacy'),
    sdkLegacy: () => sdkOnce('legacy'),
  });
  const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
  return { ...m, samples };
}

/** E3: `-p` with 20 cached 2026 servers (lazy: none spawned, no probe) vs a project with none. */
export async function benchWarmModern({ reps = 9 } = {}) {
  const model = await startModel();
  try {
    const p0 = await makeProject(0);
    const cached = await makeProject(20, 'lazy', STDIO_2026);
    await ttfrOnce(model, cached, 20, WAIT_ALL); // probes, lists and caches the 20 servers (tools + verdict)
    await ttfrOnce(model, p0, 0);
    const samples = await rotate(reps, {
      none: () => ttfrOnce(model, p0, 0),
      cached: () => ttfrOnce(model, cached, 20),
    });
    return { none: median(samples.none), cached: median(samples.cached), samples };
  } finally {
    await model.close();
  }
}
