// Target 6: one 10 MiB tools/call result (content.mjs `big {mb: 10}`) through the agent's transport
// + SDK Client, vs the raw cost of moving 10 MiB through a child-process pipe. The SDK's own
// StdioClientTransport is shown for reference (its default 10 MiB read buffer rejects this result).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ServerLog } from '../dist/mcp/server-log.js';
import { createTransportFactory } from '../dist/mcp/transports.js';
import { ProcessGroupTracker } from '../dist/process/group-tracker.js';
import {
  CONTENT,
  definition,
  killQuietly,
  median,
  now,
  sdkCloseAll,
  sdkConnect,
  spawnGroup,
} from './lib.mjs';

const MB = 10;
const PREBUILT = new URL('./prebuilt-server.mjs', import.meta.url).pathname;
const BYTES = MB * 1024 * 1024;

/**
 * A child that writes a pre-built buffer each time it reads a line: 10 MiB of bytes (the pipe's own
 * cost), or with `json` the same result as one ready-made JSON-RPC line that the reader decodes and
 * JSON.parses the naive way (Buffer.concat, UTF-8 decode, JSON.parse).
 */
function rawPipe({ json = false } = {}) {
  const payload = json
    ? `Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'y'.repeat(${BYTES}) }] } }) + '\\n')`
    : `Buffer.alloc(${BYTES}, 121)`;
  const script = `const b = ${payload}; process.stdin.on('data', () => process.stdout.write(b));`;
  const child = spawnGroup(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'ignore'] });
  return {
    async once() {
      const chunks = [];
      let got = 0;
      const t0 = now();
      const done = new Promise((resolve) => {
        const onData = (chunk) => {
          chunks.push(chunk);
          got += chunk.length;
          if (json ? chunk[chunk.length - 1] !== 0x0a : got < BYTES) return;
          child.stdout.off('data', onData);
          resolve(Buffer.concat(chunks, got));
        };
        child.stdout.on('data', onData);
      });
      child.stdin.write('\n');
      const all = await done;
      if (json) {
        const message = JSON.parse(all.toString('utf8'));
        if (message.result.content[0].text.length !== BYTES) throw new Error('raw json pipe: wrong size');
      } else if (all.length !== BYTES) throw new Error('raw pipe: short read');
      return now() - t0;
    },
    close: () => killQuietly(-child.pid),
  };
}

/**
 * The baseline, "a raw pipe echo of 10 MB": write 10 MiB into a child that echoes every
 * byte back (`stdin.pipe(stdout)`), and read all 10 MiB back. No JSON, no protocol.
 */
function echoPipe() {
  const payload = Buffer.alloc(BYTES, 121);
  const child = spawnGroup(process.execPath, ['-e', 'process.stdin.pipe(process.stdout)'], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  return {
    async once() {
      let got = 0;
      const t0 = now();
      const done = new Promise((resolve) => {
        const onData = (chunk) => {
          got += chunk.length;
          if (got < BYTES) return;
          child.stdout.off('data', onData);
          resolve();
        };
        child.stdout.on('data', onData);
      });
      child.stdin.write(payload);
      await done;
      if (got !== BYTES) throw new Error('echo pipe: wrong size');
      return now() - t0;
    },
    close: () => killQuietly(-child.pid),
  };
}

/** ms for one call; with `stdout` (the server's pipe), also notes when its first byte arrived. */
async function timedCall(client, stdout, split) {
  let firstByte;
  const onData = () => {
    firstByte ??= now();
  };
  stdout?.prependListener('data', onData);
  const t0 = now();
  try {
    const result = await client.callTool({ name: 'big', arguments: { mb: MB } }, undefined, {
      timeout: 30_000,
    });
    const elapsed = now() - t0;
    if (result.content[0]?.text?.length !== BYTES) throw new Error('big: wrong result size');
    if (split && firstByte !== undefined) {
      split.server.push(firstByte - t0);
      split.client.push(elapsed - (firstByte - t0));
    }
    return elapsed;
  } finally {
    stdout?.off('data', onData);
  }
}

/** The SDK transport with its default maxBufferSize: how it fails on this result. */
async function sdkDefaultFailure() {
  const sdk = await sdkConnect(definition('content', CONTENT));
  try {
    await timedCall(sdk.client);
    return 'unexpectedly succeeded';
  } catch (error) {
    return error.message.split('\n')[0];
  } finally {
    await sdkCloseAll([sdk]);
  }
}

/** `gc` when the bench runs with --expose-gc (npm run bench does): each sample starts clean. */
const collect = globalThis.gc ?? (() => undefined);

async function rotateSamples(reps, order, sides, samples) {
  for (let r = 0; r < reps; r++) {
    // Rotate who goes first so no side always runs right after the same neighbour.
    for (let i = 0; i < order.length; i++) {
      const key = order[(i + r) % order.length];
      collect();
      samples[key].push(await sides[key]());
    }
  }
}

export async function benchBigResult({ reps = 5 } = {}) {
  const tracker = new ProcessGroupTracker();
  const opened = createTransportFactory(tracker, { authDir: '/nonexistent' })(
    definition('content', CONTENT),
    new ServerLog('content', undefined),
  );
  const agent = new Client({ name: 'geekagent', version: 'bench' }, { capabilities: {} });
  const openedPrebuilt = createTransportFactory(tracker, { authDir: '/nonexistent' })(
    definition('prebuilt', PREBUILT),
    new ServerLog('prebuilt', undefined),
  );
  const prebuilt = new Client({ name: 'geekagent', version: 'bench' }, { capabilities: {} });
  let sdk;
  const raw = rawPipe();
  const echo = echoPipe();
  const rawJson = rawPipe({ json: true });
  try {
    await agent.connect(opened.transport);
    await prebuilt.connect(openedPrebuilt.transport);
    sdk = await sdkConnect(definition('content', CONTENT), { maxBufferSize: 64 * 1024 * 1024 });
    // Diagnostic only: the transport's child is private; when reachable, split the agent's time
    // into the server's part (request → first byte) and the client's (first byte → result).
    const stdout = opened.transport.child?.stdout;
    const split = { server: [], client: [] };
    let warm = true;
    const sides = {
      agent: () => timedCall(agent, stdout, warm ? undefined : split),
      prebuilt: () => timedCall(prebuilt),
      sdk: () => timedCall(sdk.client),
      raw: () => raw.once(),
      echo: () => echo.once(),
      rawJson: () => rawJson.once(),
    };
    const samples = { agent: [], prebuilt: [], sdk: [], raw: [], echo: [], rawJson: [] };
    for (const key of Object.keys(sides)) await sides[key](); // warm-up
    warm = false;
    // The row's sides first, then the diagnostics: the SDK transport leaves hundreds of MB of
    // garbage per call, which would otherwise be collected during whichever side runs next.
    await rotateSamples(reps, ['prebuilt', 'echo', 'rawJson', 'raw'], sides, samples);
    await rotateSamples(reps, ['agent', 'sdk'], sides, samples);
    const failure = await sdkDefaultFailure();
    return {
      agent: median(samples.agent),
      prebuilt: median(samples.prebuilt),
      sdk: median(samples.sdk),
      raw: median(samples.raw),
      echo: median(samples.echo),
      rawJson: median(samples.rawJson),
      split: { server: median(split.server), client: median(split.client) },
      sdkDefault: failure,
      samples,
    };
  } finally {
    raw.close();
    echo.close();
    rawJson.close();
    await Promise.allSettled([agent.close(), prebuilt.close(), sdk ? sdkCloseAll([sdk]) : undefined]);
    tracker.killAll('SIGKILL');
    tracker.dispose();
  }
}
