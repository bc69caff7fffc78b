// Child of memory.mjs (run with --expose-gc): heap and RSS growth of the process that holds the
// connections, from before connecting SERVERS many-tools servers to after all their tools are in.
// Usage: node --expose-gc bench/memory-child.mjs <agent|sdk> <servers> <tools>.
import { agentMcp, definition, MANY_TOOLS, sdkCloseAll, sdkConnect, sleep } from './lib.mjs';

const [mode, serversArg, toolsArg] = process.argv.slice(2);
const servers = Number(serversArg);
const toolsPer = Number(toolsArg);
const defs = (count, tools) =>
  Array.from({ length: count }, (_, i) =>
    definition(`many${i}`, MANY_TOOLS, { env: { TOOL_COUNT: String(tools) } }),
  );

/** Connects, returns the number of tools held and a close function. */
async function connect(list) {
  if (mode === 'agent') {
    const mcp = agentMcp(list);
    mcp.manager.start();
    await mcp.manager.whenSettled();
    return { tools: mcp.registry.list().length, close: () => mcp.close(), keep: mcp };
  }
  const connections = await Promise.all(list.map((def) => sdkConnect(def)));
  return {
    tools: connections.reduce((n, c) => n + c.tools.length, 0),
    close: () => sdkCloseAll(connections),
    keep: connections,
  };
}

function reading() {
  for (let i = 0; i < 3; i++) globalThis.gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}

let held;
try {
  // Warm-up: one small server connected and closed, so lazily loaded code and one-time caches
  // (module loading, zod schema compilation) are not counted as per-connection memory.
  const warm = await connect(defs(1, 5));
  await warm.close();
  await sleep(100);
  const before = reading();
  held = await connect(defs(servers, toolsPer));
  if (held.tools !== servers * toolsPer)
    throw new Error(`${mode}: ${held.tools} tools, expected ${servers * toolsPer}`);
  await sleep(200); // let stream and stderr bookkeeping settle
  const after = reading();
  process.stdout.write(
    `${JSON.stringify({ mode, tools: held.tools, heapUsed: after.heapUsed - before.heapUsed, rss: after.rss - before.rss })}\n`,
  );
} finally {
  await held?.close();
}
process.exit(0);
