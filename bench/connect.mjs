// Target 2: wall time to connect 20 demo servers and have their tools — GeekAgent's McpManager
// (start + whenSettled, tools in the registry) vs a plain SDK Promise.all of 20 connect+listTools.
// Also times the manager with unlimited concurrency, as a diagnostic for the limiter's cost.
import { agentMcp, DEMO, definition, median, now, rotate, sdkCloseAll, sdkConnect, sleep } from './lib.mjs';

const SERVERS = 20;
const defs = () => Array.from({ length: SERVERS }, (_, i) => definition(`demo${i}`, DEMO));

/** One agent connect: ms from start() until every server settled with its 2 tools registered. */
export async function agentConnectOnce({ concurrency } = {}) {
  const mcp = agentMcp(defs(), { concurrency });
  try {
    const t0 = now();
    mcp.manager.start();
    await mcp.manager.whenSettled();
    const elapsed = now() - t0;
    const failed = mcp.manager.statuses().filter((s) => s.state.state !== 'connected');
    if (failed.length > 0)
      throw new Error(`agent: ${failed.length} servers failed: ${JSON.stringify(failed[0].state)}`);
    if (mcp.registry.list().length !== SERVERS * 2) throw new Error('agent: not every tool registered');
    return elapsed;
  } finally {
    await mcp.close();
    await sleep(100); // let the exited servers' last exit work finish before the next round
  }
}

/** One baseline connect: ms for Promise.all of 20 × (Client + StdioClientTransport + connect + listTools). */
export async function sdkConnectOnce() {
  const connections = [];
  try {
    const t0 = now();
    await Promise.all(
      defs().map(async (def, i) => {
        connections[i] = await sdkConnect(def);
      }),
    );
    const elapsed = now() - t0;
    if (connections.some((c) => c.tools.length !== 2)) throw new Error('sdk: missing tools');
    return elapsed;
  } finally {
    await sdkCloseAll(connections);
    await sleep(100);
  }
}

export async function benchConnect({ reps = 5 } = {}) {
  await sdkConnectOnce(); // warm-up: file cache, JIT of both sides
  const samples = await rotate(reps, {
    agent: () => agentConnectOnce(),
    sdk: () => sdkConnectOnce(),
    unlimited: () => agentConnectOnce({ concurrency: SERVERS }),
  });
  return {
    agent: median(samples.agent),
    sdk: median(samples.sdk),
    unlimited: median(samples.unlimited),
    samples,
  };
}
