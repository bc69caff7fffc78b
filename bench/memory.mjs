// Target 5: client memory for 20 servers × 50 tools (1,000 tools). Each measurement runs in a fresh
// `node --expose-gc` child (memory-child.mjs) so earlier sections cannot skew it; medians of `reps`.
// Also: the plain SDK holding the same 1,000 tools, and the agent with 20 × 1 tool (fixed cost).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { median, ROOT } from './lib.mjs';

const run = promisify(execFile);
const CHILD = path.join(ROOT, 'bench', 'memory-child.mjs');

async function measure(mode, servers, tools) {
  const { stdout } = await run(
    process.execPath,
    ['--expose-gc', CHILD, mode, String(servers), String(tools)],
    {
      timeout: 60_000,
      killSignal: 'SIGKILL',
    },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

export async function benchMemory({ reps = 2 } = {}) {
  const cases = {
    agent: ['agent', 20, 50],
    sdk: ['sdk', 20, 50],
    agentFixed: ['agent', 20, 1],
  };
  const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let r = 0; r < reps; r++) {
    for (const [key, args] of Object.entries(cases)) samples[key].push(await measure(...args));
  }
  const summary = (list) => ({
    tools: list[0].tools,
    heapUsed: median(list.map((s) => s.heapUsed)),
    rss: median(list.map((s) => s.rss)),
  });
  return Object.fromEntries(Object.entries(samples).map(([k, list]) => [k, summary(list)]));
}
