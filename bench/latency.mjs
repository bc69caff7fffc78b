// Speed goals that used to be wall-clock bounds inside correctness tests, where a busy machine
// failed them: the tests now check the behaviour and its order of events, these rows the time.
// L1 (issue 19): Ctrl+C during a huge streamed answer → `cancelled` on screen, in a real pty.
// L2: cutting a 10 MB MCP result (one part, then 1,000 parts of 10 KB) to the result limit.
import { convertCallToolResult } from '../dist/mcp/results.js';
import { median, now } from './lib.mjs';
import { makeProject } from './startup.mjs';
import { answer, startModel, tui } from './tui.mjs';

/** Milliseconds from Ctrl+C to `cancelled` on screen while 4 MB streams in 400-char chunks. */
export async function cancelLatency({ reps = 5 } = {}) {
  const project = await makeProject(0);
  const samples = [];
  for (let i = 0; i < reps; i++) {
    const model = await startModel({ text: answer(4 * 1024 * 1024), piece: 400, delayMs: 1 });
    const t = tui(project, model.url);
    try {
      await t.waitUntil((s) => s.includes('Type /help'));
      t.send('flood\r');
      await t.waitUntil((s) => /Line \d{6} of the long answer/.test(s));
      const t0 = now();
      t.send('\u0003');
      samples.push((await t.waitUntil((s) => s.includes('cancelled'), 30_000)) - t0);
    } finally {
      t.kill();
      model.close();
    }
  }
  return { median: median(samples), samples };
}

/** Milliseconds to cut a 10 MB result to the default limit, one part and 1,000 parts (median). */
export function resultConversion({ reps = 7 } = {}) {
  const options = { maxResultTokens: 25_000, acceptsMedia: false };
  const big = 'line of output\n'.repeat(700_000);
  const parts = Array.from({ length: 1000 }, () => ({ type: 'text', text: big.slice(0, 10_000) }));
  const samples = [];
  for (let i = 0; i < reps; i++) {
    const t0 = now();
    convertCallToolResult({ content: [{ type: 'text', text: big }] }, options);
    convertCallToolResult({ content: parts }, options);
    samples.push(now() - t0);
  }
  return { median: median(samples), samples };
}
