// Targets 3 and 4: tools/call latency (p50/p99, sequential) and throughput at 1/8/64 in flight,
// through the agent's path (ToolExecutor → policy → registry → MCP adapter → McpConnection → our
// transport) vs a plain SDK client calling word_count on another instance of the same demo server.
// Diagnostics: the SDK with its server in its own session (as the agent's are), the agent's path vs
// a bare client.callTool on the same connection, and both paths in-process (InMemoryTransport).
import { getEventListeners, setMaxListeners } from 'node:events';
import { existsSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { createToolSet } from '../dist/extensions/tool-set.js';
import * as connections from '../dist/mcp/connection-layer.js';
import { McpManager } from '../dist/mcp/manager.js';
import { PolicyStore } from '../dist/permissions/policy.js';
import { createRedactor } from '../dist/permissions/redact.js';
import { ToolExecutor } from '../dist/tools/executor.js';
import { ToolRegistry } from '../dist/tools/registry.js';
import {
  agentMcp,
  DEMO,
  definition,
  median,
  now,
  percentile,
  rotate,
  sdkCloseAll,
  sdkConnect,
} from './lib.mjs';

const TEXT = 'The quick brown fox jumps over the lazy dog while the agent counts every word it sees. '.repeat(
  3,
);
const ARGS_JSON = JSON.stringify({ text: TEXT });
const EXPECTED = `Characters ${TEXT.length}, words ${TEXT.split(/\s+/).filter(Boolean).length}`;
const SETSID = '/usr/bin/setsid';
/** What agent.ts allows a turn's signal for a round as wide as the widest run here (64 calls). */
const TURN_LISTENERS = 64 * 3 + 10;

/**
 * A turn's one AbortSignal goes to all of its tool calls; model turns of 10 calls each. The
 * controllers belong to the turns, not the calls, so they are made here, outside any timing, and
 * like the agent's (agent.ts) they take a round's listeners without Node's leak warning (which
 * costs a stack trace and a line on stderr each time: 9,000 of them once skewed rows 4).
 */
function turnSignals() {
  const turns = Array.from({ length: 2500 }, () => {
    const turn = new AbortController();
    setMaxListeners(TURN_LISTENERS, turn.signal);
    return turn;
  });
  let calls = 0;
  return () => (turns[Math.floor(calls++ / 10)] ?? new AbortController()).signal;
}

/** The agent's call path over a registry/policies pair: what Agent.runCall does per tool call. */
function agentCaller(registry, policies) {
  if (policies.policyFor('mcp_demo_word_count') !== 'allow')
    throw new Error('policy does not allow mcp_demo_*');
  const executor = new ToolExecutor({
    registry,
    policies,
    approver: { ask: async () => 'no', refusalMessage: () => 'refused' },
    // A redactor with one secret, like an agent run with OPENAI_API_KEY set.
    redact: createRedactor({ OPENAI_API_KEY: 'sk-bench-0123456789abcdef' }),
    // MCP tools use neither the sandbox nor undo; the executor only passes them through.
    context: { sandbox: undefined, undo: undefined, env: {} },
  });
  let id = 0;
  const turnSignal = turnSignals();
  return async (signal = turnSignal()) => {
    const call = { id: `call_${++id}`, name: 'mcp_demo_word_count', arguments: ARGS_JSON };
    const outcome = await executor.execute(call, signal);
    if (outcome.isError || outcome.output !== EXPECTED)
      throw new Error(`agent call failed: ${JSON.stringify(outcome.output)}`);
  };
}

/**
 * The request options every agent call carries (sdk-call.ts): the turn's signal (cancellation), a
 * progress token (progress shown, and the timeout restarted by it), the server's timeout.
 */
function agentRequestOptions() {
  const turnSignal = turnSignals();
  return () => ({
    signal: turnSignal(),
    onprogress: () => undefined,
    timeout: 60_000,
    resetTimeoutOnProgress: true,
    maxTotalTimeout: 600_000,
  });
}

const clientCaller = (client, options) => async () => {
  const result = await client.callTool(
    { name: 'word_count', arguments: { text: TEXT } },
    undefined,
    options?.(),
  );
  if (result.isError || result.content[0]?.text !== EXPECTED)
    throw new Error(`sdk call failed: ${JSON.stringify(result)}`);
};

/** Stdio sides: agent, sdk and (when setsid exists) sdkSetsid; `agentFirst` picks the spawn order. */
async function setup(agentFirst) {
  const closers = [];
  const close = () => Promise.allSettled(closers.map((f) => f()));
  try {
    const startAgent = async () => {
      const agent = agentMcp([definition('demo', DEMO)], { allow: ['mcp_demo_*'] });
      closers.push(() => agent.close());
      agent.manager.start();
      await agent.manager.whenSettled();
      return agent;
    };
    const startSdk = async () => {
      const sdk = await sdkConnect(definition('demo', DEMO));
      closers.push(() => sdkCloseAll([sdk]));
      return sdk;
    };
    const agent = agentFirst ? await startAgent() : undefined;
    const sdk = await startSdk();
    const agentReady = agent ?? (await startAgent());
    // The agent starts servers with `detached: true` (setsid): a new session, and with the kernel's
    // sched_autogroup a separate scheduling group. `setsid` gives the SDK's server the same placement.
    const def = definition('demo', DEMO);
    const setsid = existsSync(SETSID)
      ? await sdkConnect({ ...def, command: SETSID, args: [def.command, ...def.args] })
      : undefined;
    if (setsid) closers.push(() => sdkCloseAll([setsid]));
    const viaAgent = agentCaller(agentReady.registry, agentReady.policies);
    const sides = { agent: viaAgent, sdk: clientCaller(sdk.client) };
    if (setsid) {
      sides.sdkSetsid = clientCaller(setsid.client);
      // The same SDK client making the request the agent makes (options), to the same placement.
      sides.sdkMatched = clientCaller(setsid.client, agentRequestOptions());
    }
    // The SDK Client inside the agent's own connection: same pipe and server process as `agent`.
    const sameServer = clientCaller(agentReady.manager.connection('demo').connectedClient);
    return { sides, viaAgent, sameServer, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A demo-like server in this process, reached over the SDK's InMemoryTransport. */
async function inMemoryServer() {
  const server = new McpServer({ name: 'demo-in-memory', version: '1.0.0' });
  server.registerTool(
    'word_count',
    { description: 'Count words.', inputSchema: { text: z.string() } },
    async ({ text }) => ({
      content: [
        {
          type: 'text',
          text: `Characters ${text.length}, words ${text.split(/\s+/).filter(Boolean).length}`,
        },
      ],
    }),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return { transport: clientSide, close: () => server.close() };
}

/** µs per call of both paths with no IPC at all: the agent's own code cost over the SDK's. */
async function inProcessCost() {
  const forSdk = await inMemoryServer();
  const forAgent = await inMemoryServer();
  const client = new Client({ name: 'sdk-baseline', version: '1.0.0' }, { capabilities: {} });
  await client.connect(forSdk.transport);
  const registry = new ToolRegistry();
  const policies = new PolicyStore({ layers: [{ label: 'cli', rules: { 'mcp_demo_*': 'allow' } }] });
  const manager = new McpManager({
    entries: [{ name: 'demo', kind: 'ok', definition: definition('demo', DEMO) }],
    tools: createToolSet({ registry, policies }, 'mcp'),
    connections,
    createTransport: () => ({ transport: forAgent.transport, exitReason: () => undefined }),
    logDir: undefined,
    acceptsMedia: false,
    clientVersion: 'bench',
  });
  try {
    manager.start();
    await manager.whenSettled();
    const per = 500;
    const samples = await rotate(20, {
      agent: timedRun(agentCaller(registry, policies), per),
      sdk: timedRun(clientCaller(client), per),
      sdkOptions: timedRun(clientCaller(client, agentRequestOptions()), per),
    });
    const of = (name) => median(samples[name].slice(2));
    return { agent: of('agent'), sdk: of('sdk'), sdkOptions: of('sdkOptions') };
  } finally {
    await Promise.allSettled([manager.shutdown(), client.close(), forSdk.close(), forAgent.close()]);
  }
}

const timedRun = (call, count) => async () => {
  const t0 = now();
  for (let i = 0; i < count; i++) await call();
  return ((now() - t0) * 1000) / count;
};

/** Sequential calls, each timed; adds the batch's CPU time (this process only) to `cpu.us`. */
async function timedBatch(call, count, into, cpu = { us: 0 }) {
  const c0 = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const t0 = now();
    await call();
    into.push(now() - t0);
  }
  const used = process.cpuUsage(c0);
  cpu.us += used.user + used.system;
}

/** ms that `concurrency` workers sharing `total` calls take. */
async function throughputRun(call, concurrency, total) {
  let next = 0;
  const t0 = now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) await call();
    }),
  );
  return now() - t0;
}

/**
 * `rounds` fresh sets of servers (spawn order swapped between rounds, so no side keeps a lucky
 * placement); in each, latency batches and throughput reps rotate across the sides. Pooled.
 */
export async function benchCalls({ calls = 3000, batch = 50, reps = 6, rounds = 2 } = {}) {
  const lat = {};
  const tput = {};
  const same = {};
  let leakedListeners;
  for (let round = 0; round < rounds; round++) {
    const s = await setup(round % 2 === 0);
    try {
      const names = Object.keys(s.sides);
      for (const name of names) await timedBatch(s.sides[name], 300, []); // warm-up: JIT every path
      for (const name of names) lat[name] ??= { list: [], cpu: { us: 0 } };
      for (let b = 0; b < calls / rounds / batch; b++) {
        for (let i = 0; i < names.length; i++) {
          const name = names[(i + b) % names.length];
          await timedBatch(s.sides[name], batch, lat[name].list, lat[name].cpu);
        }
      }
      // Many short runs, the sides taking turns, summed per side: a slow spell of the machine hits
      // every side about equally, and every call counts (a mean, tails included, as throughput is).
      for (const concurrency of [1, 8, 64]) {
        const total = concurrency === 1 ? 200 : 800;
        const callers = Object.fromEntries(
          names.map((n) => [n, () => throughputRun(s.sides[n], concurrency, total)]),
        );
        const samples = await rotate(Math.ceil(reps / rounds), callers);
        tput[concurrency] ??= {};
        for (const name of names) {
          tput[concurrency][name] ??= { calls: 0, ms: 0 };
          const side = tput[concurrency][name];
          side.calls += total * samples[name].length;
          side.ms += samples[name].reduce((sum, ms) => sum + ms, 0);
        }
      }
      // Diagnostic, after the measurements above so it cannot change their duty cycles: the agent's
      // path vs a bare client.callTool on the same connection, which cancels out server placement.
      for (let b = 0; b < 20; b++) {
        const pair = b % 2 === 0 ? ['agent', 'sameServer'] : ['sameServer', 'agent'];
        for (const name of pair) {
          same[name] ??= [];
          await timedBatch(name === 'agent' ? s.viaAgent : s.sameServer, batch, same[name]);
        }
      }
      // Finding: the SDK adds an 'abort' listener to the call's signal per request and never
      // removes it; the agent takes each off when its call settles, so a turn's signal keeps none.
      const long = new AbortController();
      setMaxListeners(0, long.signal);
      for (let i = 0; i < 20; i++) await s.viaAgent(long.signal);
      leakedListeners = getEventListeners(long.signal, 'abort').length;
    } finally {
      await s.close();
    }
  }
  const latency = Object.fromEntries(
    Object.entries(lat).map(([name, { list, cpu }]) => [
      name,
      // cpuPerCall: µs of this process's CPU per call, mean (the server's CPU is not included).
      {
        p50: percentile(list, 50),
        p99: percentile(list, 99),
        n: list.length,
        cpuPerCall: cpu.us / list.length,
      },
    ]),
  );
  const throughput = Object.fromEntries(
    Object.entries(tput).map(([c, bySide]) => [
      c,
      Object.fromEntries(Object.entries(bySide).map(([n, v]) => [n, v.calls / (v.ms / 1000)])),
    ]),
  );
  const sameServer = { agent: percentile(same.agent, 50), client: percentile(same.sameServer, 50) };
  return { latency, throughput, leakedListeners, sameServer, inProcess: await inProcessCost() };
}
