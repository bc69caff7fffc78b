// `npm run bench`: GeekAgent's MCP client against the plain SDK, side by side in one run, as a
// table of ratios with targets and PASS/MISS. A report: exit code 0 on a MISS, 1 only on an error.
// `node bench/run.mjs connect calls` runs some sections (startup, connect, calls, memory, big,
// sessions, lazy, toolbytes, rag, tui, launch, compilecache, instructions, platform, cache, sandbox, latency,
// eras). `platform` needs the previous release's build (GEEKAGENT_BENCH_OLD; skipped without it).
// `claudecode` runs only when named: it installs Claude Code from the npm registry (bench/claude-code.mjs).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { benchBigResult } from './big-result.mjs';
import { benchCache } from './cache.mjs';
import { benchCalls } from './calls.mjs';
import { benchClaudeCode } from './claude-code.mjs';
import { benchColdStart } from './cold-start.mjs';
import { benchCompileCache } from './compile-cache.mjs';
import { benchConnect } from './connect.mjs';
import { benchEras, benchWarmModern } from './era.mjs';
import { benchInstructions } from './instructions.mjs';
import { cancelLatency, resultConversion } from './latency.mjs';
import { benchLazyStartup } from './lazy-startup.mjs';
import { killSpawnedGroups, removeTempDirs } from './lib.mjs';
import { benchMemory } from './memory.mjs';
import { benchPlatform, oldBuild } from './platform.mjs';
import { benchRag } from './rag.mjs';
import { benchSandboxCost, benchSandboxQuestions } from './sandbox.mjs';
import { benchSessions } from './sessions.mjs';
import { benchStartup } from './startup.mjs';
import { benchStartupTargets } from './startup-targets.mjs';
import { benchToolBytes } from './tool-bytes.mjs';
import { benchTui } from './tui.mjs';

const ALL = [
  'launch',
  'startup',
  'compilecache',
  'instructions',
  'platform',
  'lazy',
  'cold',
  'connect',
  'calls',
  'memory',
  'big',
  'sessions',
  'toolbytes',
  'rag',
  'tui',
  'cache',
  'sandbox',
  'latency',
  'eras',
];
const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ALL;

const rows = [];
const notes = [];
let errors = 0;
const fmtMs = (v) => `${v >= 100 ? v.toFixed(0) : v.toFixed(v >= 10 ? 1 : 3)} ms`;
const fmtMB = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const fmtRate = (v) => `${Math.round(v)}/s`;
const list = (values, f = (v) => v.toFixed(0)) => values.map(f).join(' ');

/** ratio ≤ max (lower is better) or ≥ min (higher is better). */
function row(id, what, agent, baseline, ratio, target, pass) {
  rows.push({
    id,
    what,
    agent,
    baseline,
    ratio: Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : '—',
    target,
    result: pass ? 'PASS' : 'MISS',
  });
}

const wallCpu = (v) => `${fmtMs(v.wall)} / ${fmtMs(v.cpu)}`;

/**
 * A row judged on CPU time (steadier than wall time on a shared machine; wall beside it): at most
 * `max` × the baseline's, or the wall times' ratio where CPU time cannot be measured (not Linux).
 */
function cpuRatioRow(id, what, agent, baseline, max) {
  const onCpu = Number.isFinite(agent.cpu / baseline.cpu);
  const ratio = onCpu ? agent.cpu / baseline.cpu : agent.wall / baseline.wall;
  const target = `≤ ${max.toFixed(2)}× ${onCpu ? 'cpu' : 'wall'}`;
  row(id, `${what} (wall / cpu)`, wallCpu(agent), wallCpu(baseline), ratio, target, ratio <= max);
}

/** A row judged on CPU time against a fixed limit (`limitMs`), wall time beside it. */
function cpuLimitRow(id, what, agent, baseline, limitMs, target) {
  const ratio = agent.cpu / baseline.cpu;
  row(id, `${what} (wall / cpu)`, wallCpu(agent), wallCpu(baseline), ratio, target, agent.cpu <= limitMs);
}

function pressure() {
  try {
    return readFileSync('/proc/pressure/cpu', 'utf8')
      .split('\n')[0]
      .match(/avg60=([\d.]+)/)[1];
  } catch {
    return 'n/a';
  }
}

async function section(name, body) {
  if (!wanted.includes(name)) return;
  const t0 = Date.now();
  try {
    await body();
  } catch (error) {
    errors++;
    rows.push({
      id: name,
      what: `ERROR: ${error.message.split('\n')[0]}`,
      agent: '',
      baseline: '',
      ratio: '',
      target: '',
      result: 'ERROR',
    });
  }
  notes.push(`  (${name} took ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}

function cleanupSync() {
  killSpawnedGroups();
}
process.on('exit', cleanupSync);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    cleanupSync();
    removeTempDirs().finally(() => process.exit(130));
  });
}

const started = Date.now();
const before = { load: os.loadavg()[0].toFixed(2), psi: pressure() };
try {
  await section('connect', async () => {
    const connect = await benchConnect({ reps: 5 });
    const ratio = connect.agent / connect.sdk;
    row(
      '2',
      'connect 20 demo servers (wall)',
      fmtMs(connect.agent),
      fmtMs(connect.sdk),
      ratio,
      '≤ 1.10×',
      ratio <= 1.1,
    );
    notes.push(`2: samples agent [${list(connect.samples.agent)}] sdk [${list(connect.samples.sdk)}] ms`);
    notes.push(
      `2: diagnostic (rotated with both) — McpManager with concurrency 20 instead of one per core: ${fmtMs(connect.unlimited)} [${list(connect.samples.unlimited)}]`,
    );
  });

  await section('startup', async () => {
    const s = await benchStartup({ reps: 5 });
    const extra = s.ttfr20 - s.ttfr0;
    const ratio = extra / s.sdk;
    row(
      '1',
      'time-to-first-request: ttfr20 − ttfr0',
      fmtMs(extra),
      fmtMs(s.sdk),
      ratio,
      '≤ 1.10×',
      ratio <= 1.1,
    );
    notes.push(
      `1: ttfr0 ${fmtMs(s.ttfr0)} [${list(s.samples.ttfr0)}], ttfr20 ${fmtMs(s.ttfr20)} [${list(s.samples.ttfr20)}]; baseline = SDK connect of 20 as in row 2, rotated with these runs [${list(s.samples.sdk)}]`,
    );
  });

  await section('launch', async () => {
    // 11 rotated samples of each: with 7, S1's median ratio swung ±0.1 between runs of one build
    // on a 2-core VM (each run's `node -e 0` median moves with the machine's load).
    const s = await benchStartupTargets({ reps: 11 });
    const ratioRow = (id, what, value, baseline, max) =>
      row(
        id,
        what,
        fmtMs(value),
        fmtMs(baseline),
        value / baseline,
        `≤ ${max.toFixed(2)}×`,
        value / baseline <= max,
      );
    // Issue 39: the targets on Node ≥ 22.12 with Node's compile cache (were 3× and 1.5× on Node 20).
    ratioRow('S1', 'startup: -p, no servers: spawn → first model request vs node -e 0', s.ttfr, s.node, 2.5);
    ratioRow('S2', 'startup: --version vs node -e 0', s.version, s.node, 1.2);
    ratioRow('S3', 'startup: TUI first frame (input line + panel, pty) vs node -e 0', s.frame, s.node, 5);
    ratioRow('S4', 'startup: mcp list, one server vs plain SDK script (connect + list)', s.list, s.sdk, 1.2);
    const l = s.samples;
    notes.push(
      `S: node -e 0 [${list(l.node)}], -p [${list(l.ttfr)}], --version [${list(l.version)}], TUI [${list(l.frame)}], mcp list [${list(l.list)}], SDK script [${list(l.sdk)}] ms`,
    );
    const c = s.cpu;
    const k = s.cpuSamples;
    if (Number.isFinite(c.node))
      notes.push(
        `S: CPU time until the same point (bench/cpu.mjs), medians: node -e 0 ${fmtMs(c.node)}, -p ${fmtMs(c.ttfr)} (${(c.ttfr / c.node).toFixed(2)}×), --version ${fmtMs(c.version)} (${(c.version / c.node).toFixed(2)}×), TUI ${fmtMs(c.frame)} (${(c.frame / c.node).toFixed(2)}×); samples node [${list(k.node)}] -p [${list(k.ttfr)}] --version [${list(k.version)}] TUI [${list(k.frame)}] ms`,
      );
  });

  await section('instructions', async () => {
    const c = await benchInstructions();
    if (c.skipped) {
      notes.push(`S1i: skipped: ${c.skipped}`);
      return;
    }
    const mega = (v) => `${(v / 1e6).toFixed(1)} M`;
    notes.push(
      `S1i: instructions (callgrind, user space; steady on a busy machine) until -p's first model request ${mega(c.cli)} vs a whole node -e 0 ${mega(c.node)}: ${(c.cli / c.node).toFixed(2)}×; samples -p [${c.samples.cli.map(mega).join(' ')}] node [${c.samples.node.map(mega).join(' ')}]`,
    );
  });

  await section('compilecache', async () => {
    const c = await benchCompileCache({ reps: 9 });
    // Judged on CPU time where it can be measured (Linux), else on wall time.
    cpuRatioRow(
      'S1c',
      `startup -p: Node's compile cache on vs off (GEEKAGENT_CODE_CACHE=off), ${c.node}`,
      { wall: c.wall.on, cpu: c.cpu.on },
      { wall: c.wall.off, cpu: c.cpu.off },
      0.9,
    );
    const s = c.samples;
    notes.push(
      `S1c: judged on the CLI's CPU time until the request (wall ${(c.wall.on / c.wall.off).toFixed(2)}×); on wall [${list(s.wall.on)}] cpu [${list(s.cpu.on)}], off wall [${list(s.wall.off)}] cpu [${list(s.cpu.off)}] ms`,
    );
  });

  await section('platform', async () => {
    const old = oldBuild();
    if (!old.ok) {
      notes.push(`P: Node 20 → 24 side by side skipped — ${old.why}`);
      return;
    }
    const p = await benchPlatform(old, { reps: 11 });
    const x = (v, side) => `${(v / side.nodeMs).toFixed(2)}×`;
    for (const [id, what, key] of [
      ['P0', 'node -e 0', 'nodeMs'],
      ['P1', '-p, no servers: first model request', 'print'],
      ['P2', '--version', 'version'],
      ['P3', 'TUI first frame', 'frame'],
    ]) {
      // A record of the move, not a target (the start-up targets are rows S1–S3): HEAD on this
      // Node against the old build on its Node, each also as a multiple of its own node -e 0.
      for (const [measure, m] of [
        ['wall', p.wall],
        ['cpu', p.cpu],
      ]) {
        const own =
          key === 'nodeMs' ? '' : ` (${x(m.new[key], m.new)} vs ${x(m.old[key], m.old)} own node -e 0)`;
        row(
          `${id} ${measure}`,
          `${what}: HEAD on ${p.newNode} vs ${p.oldCommit} on ${p.oldNode}${own}`,
          fmtMs(m.new[key]),
          fmtMs(m.old[key]),
          m.new[key] / m.old[key],
          '—',
          true,
        );
      }
    }
    const w = p.samples.wall;
    const c = p.samples.cpu;
    const both = (v) => `wall [${list(w[v])}] cpu [${list(c[v])}]`;
    notes.push(
      `P: ${p.oldCommit} built in ${old.dir}, run with ${old.node}; medians of ${w.newNode.length} rotated runs of all eight, cpu = the process's CPU time until the same point (bench/cpu.mjs)`,
    );
    for (const side of ['new', 'old'])
      notes.push(
        `P ${side}: node -e 0 ${both(`${side}Node`)}; -p ${both(`${side}Print`)}; --version ${both(`${side}Version`)}; TUI ${both(`${side}Frame`)} ms`,
      );
  });

  await section('cold', async () => {
    const s = await benchColdStart();
    row(
      '1c',
      'cold first request: 20 servers, nothing cached (grace vs waiting for all)',
      fmtMs(s.grace),
      fmtMs(s.waitAll),
      s.grace / s.waitAll,
      '≤ 4000 ms (Claude Code, issue 45)',
      s.grace <= 4000,
    );
    notes.push(
      `1c: grace [${list(s.samples.grace)}] with [${s.samples.graceTools.join(' ')}] MCP tools, wait-all [${list(s.samples.waitAll)}]; 3 of 20 taking 6 s: [${list(s.samples.slow)}] ms with [${s.samples.slowTools.join(' ')}] tools`,
    );
  });

  await section('claudecode', async () => {
    const s = await benchClaudeCode();
    if (s.skipped) {
      notes.push(`1d: skipped: ${s.skipped}`);
      return;
    }
    row(
      '1d',
      `cold first request, 20 servers: GeekAgent vs Claude Code ${s.version} (same servers and fake model)`,
      fmtMs(s.geekagent),
      fmtMs(s.claude),
      s.geekagent / s.claude,
      '≤ 1.00× (issue 45)',
      s.geekagent <= s.claude,
    );
    notes.push(
      `1d: GeekAgent [${list(s.samples.geekagent)}] with [${s.samples.geekagentTools.join(' ')}] MCP tools, Claude Code [${list(s.samples.claude)}] with [${s.samples.claudeTools.join(' ')}]; 3 of 20 taking 6 s: GeekAgent [${list(s.samples.slowGeekagent)}] ms with [${s.samples.slowGeekagentTools.join(' ')}] tools, Claude Code [${list(s.samples.slowClaude)}] ms with [${s.samples.slowClaudeTools.join(' ')}]`,
    );
  });

  await section('lazy', async () => {
    // 21 each: a median of five flipped this 10%-margin row between 1.07× and 1.30× on a busy VM
    // (wall), and of nine (CPU, which the row is judged on) between 1.01× and 1.14× over seven runs
    // of one build on a calm one; 25 each, alternating two builds, repeated within ±0.03×.
    const s = await benchLazyStartup({ reps: 21 });
    cpuRatioRow(
      '1b',
      'time-to-first-request: 20 cached lazy servers vs none',
      { wall: s.cached, cpu: s.cpu.cached },
      { wall: s.none, cpu: s.cpu.none },
      1.1,
    );
    notes.push(
      `1b: judged on the CLI's CPU time until the request (wall ${(s.cached / s.none).toFixed(2)}×); none wall [${list(s.samples.none)}] cpu [${list(s.cpuSamples.none)}], 20 cached wall [${list(s.samples.cached)}] cpu [${list(s.cpuSamples.cached)}]; the first request carries all 40 cached tools, no server spawned`,
    );
  });

  await section('eras', async () => {
    const e = await benchEras({ reps: 7 });
    const modern = e.agentModern / e.sdkModern;
    const legacy = e.agentLegacy / e.sdkLegacy;
    row(
      'E1',
      'connect + list + call, 2026-only server (stdio) vs SDK v2 auto',
      fmtMs(e.agentModern),
      fmtMs(e.sdkModern),
      modern,
      '≤ 1.10×',
      modern <= 1.1,
    );
    row(
      'E2',
      'connect + list + call, 2025-only server (stdio) vs SDK v2 auto',
      fmtMs(e.agentLegacy),
      fmtMs(e.sdkLegacy),
      legacy,
      '≤ 1.10×',
      legacy <= 1.1,
    );
    notes.push(
      `E1/E2: agent 2026 [${list(e.samples.agentModern)}] sdk [${list(e.samples.sdkModern)}]; agent 2025 [${list(e.samples.agentLegacy)}] sdk [${list(e.samples.sdkLegacy)}] ms; the SDK's own stdio transport probes on a sibling process, ours in place`,
    );
    const w = await benchWarmModern({ reps: 9 });
    const warm = w.cached / w.none;
    row(
      'E3',
      'time-to-first-request: 20 cached 2026 servers vs none',
      fmtMs(w.cached),
      fmtMs(w.none),
      warm,
      '≤ 1.10×',
      warm <= 1.1,
    );
    notes.push(
      `E3: none [${list(w.samples.none)}], 20 cached 2026 [${list(w.samples.cached)}]; verdicts cached with the tools: no probe, no spawn`,
    );
  });

  await section('calls', async () => {
    const c = await benchCalls({ calls: 6000, batch: 50, reps: 60, rounds: 6 });
    const { agent, sdk } = c.latency;
    for (const p of ['p50', 'p99']) {
      const ratio = agent[p] / sdk[p];
      row(
        `3 ${p}`,
        `tools/call latency ${p} (n=${agent.n} each)`,
        fmtMs(agent[p]),
        fmtMs(sdk[p]),
        ratio,
        '≤ 1.20×',
        ratio <= 1.2,
      );
    }
    for (const [concurrency, t] of Object.entries(c.throughput)) {
      const ratio = t.agent / t.sdk;
      row(
        `4 c=${concurrency}`,
        `throughput, ${concurrency} in flight`,
        fmtRate(t.agent),
        fmtRate(t.sdk),
        ratio,
        '≥ 0.83×',
        ratio >= 1 / 1.2,
      );
    }
    notes.push(
      `3: client-process CPU per call (mean, server excluded): agent ${agent.cpuPerCall.toFixed(0)} µs, sdk ${sdk.cpuPerCall.toFixed(0)} µs`,
    );
    const own = c.latency.sdkSetsid;
    if (own) {
      notes.push(
        `3/4: diagnostic — SDK client whose server runs in its own session (setsid, as the agent's do): p50 ${fmtMs(own.p50)}, p99 ${fmtMs(own.p99)}; agent/that p50 ${(agent.p50 / own.p50).toFixed(2)}×, p99 ${(agent.p99 / own.p99).toFixed(2)}×`,
      );
      notes.push(
        `4: diagnostic — same, throughput c=1/8/64: ${Object.values(c.throughput)
          .map((t) => `${fmtRate(t.sdkSetsid)} (agent/that ${(t.agent / t.sdkSetsid).toFixed(2)}×)`)
          .join(', ')}`,
      );
    }
    const matched = c.latency.sdkMatched;
    if (matched) {
      notes.push(
        `3/4: diagnostic — that SDK client sending the agent's request options (turn signal, progress token, timeout reset): p50 ${fmtMs(matched.p50)} (agent/that ${(agent.p50 / matched.p50).toFixed(2)}×); throughput c=1/8/64: ${Object.values(
          c.throughput,
        )
          .map((t) => `${fmtRate(t.sdkMatched)} (agent/that ${(t.agent / t.sdkMatched).toFixed(2)}×)`)
          .join(', ')}`,
      );
    }
    notes.push(
      `3: diagnostic — same connection and server process: agent path p50 ${fmtMs(c.sameServer.agent)} vs bare client.callTool ${fmtMs(c.sameServer.client)} (${(c.sameServer.agent / c.sameServer.client).toFixed(2)}×)`,
    );
    notes.push(
      `3: diagnostic — in-process over InMemoryTransport (no IPC; client + server code only): agent ${c.inProcess.agent.toFixed(1)} µs/call, sdk ${c.inProcess.sdk.toFixed(1)} µs/call (+${(c.inProcess.agent - c.inProcess.sdk).toFixed(1)} µs)`,
    );
    const ip = c.inProcess;
    notes.push(
      `3: of that, the SDK's own work (client and server) for the options every agent call sends (turn signal, progress token, timeout reset): sdk with them ${ip.sdkOptions.toFixed(1)} µs/call (+${(ip.sdkOptions - ip.sdk).toFixed(1)}); the agent's code over that: +${(ip.agent - ip.sdkOptions).toFixed(1)} µs`,
    );
    notes.push(
      `3: finding — after 20 calls on one turn signal it holds ${c.leakedListeners} 'abort' listeners (the SDK never removes its own; the agent takes each off when its call settles)`,
    );
  });

  await section('memory', async () => {
    const m = await benchMemory({ reps: 2 });
    const per1000 = (bytes, tools) => (bytes * 1000) / tools;
    const limit = 10 * 1024 * 1024;
    for (const [key, id, what] of [
      ['heapUsed', '5 heap', 'heapUsed growth'],
      ['rss', '5 rss', 'RSS growth'],
    ]) {
      const grown = per1000(m.agent[key], m.agent.tools);
      row(
        id,
        `${what} per 1,000 tools (20×50)`,
        fmtMB(grown),
        fmtMB(per1000(m.sdk[key], m.sdk.tools)),
        grown / m.sdk[key],
        '≤ 10 MB',
        grown <= limit,
      );
    }
    const marginal =
      (m.agent.heapUsed - m.agentFixed.heapUsed) * (1000 / (m.agent.tools - m.agentFixed.tools));
    notes.push(
      `5: baseline column = plain SDK holding the same 1,000 tools (reference, no target); agent with 20 × 1 tool: heap ${fmtMB(m.agentFixed.heapUsed)}, RSS ${fmtMB(m.agentFixed.rss)}; marginal heap per 1,000 tools ${fmtMB(marginal)}`,
    );
  });

  await section('big', async () => {
    const b = await benchBigResult({ reps: 15 });
    // The echo child only moves bytes; so does the prebuilt server: what differs is the client.
    const ratio = b.prebuilt / b.echo;
    row(
      '6',
      '10 MiB result vs raw pipe echo of 10 MiB',
      fmtMs(b.prebuilt),
      fmtMs(b.echo),
      ratio,
      '≤ 2.00×',
      ratio <= 2,
    );
    notes.push(
      `6: samples agent [${list(b.samples.prebuilt)}] echo [${list(b.samples.echo)}] ms${globalThis.gc ? ' (each after a gc())' : ''}; from content.mjs, split: server until first byte ${fmtMs(b.split.server)}, client from first byte ${fmtMs(b.split.client)} (${(b.split.client / b.raw).toFixed(2)}× raw)`,
    );
    notes.push(
      `6: the row's server answers with a pre-serialised result (bench/prebuilt-server.mjs), as the echo child only writes bytes; from the SDK server content.mjs (which builds and serialises 10 MiB per call) the agent takes ${fmtMs(b.agent)} = ${(b.agent / b.echo).toFixed(2)}× the echo, the SDK transport ${fmtMs(b.sdk)} = ${(b.sdk / b.echo).toFixed(2)}×`,
    );
    notes.push(
      `6: a one-way read of a pre-built 10 MiB buffer (no echo) takes ${fmtMs(b.raw)}; the agent (row 6) is ${(b.prebuilt / b.raw).toFixed(2)}× that; from content.mjs the agent is ${(b.agent / b.raw).toFixed(2)}×, the SDK transport ${(b.sdk / b.raw).toFixed(2)}×`,
    );
    notes.push(
      `6: naive reader — the same result as a ready-made JSON-RPC line from a raw pipe, Buffer.concat + UTF-8 decode + JSON.parse: ${fmtMs(b.rawJson)} [${list(b.samples.rawJson)}]; the agent (row 6) is ${(b.prebuilt / b.rawJson).toFixed(2)}× that (it assembles into a warm buffer and decodes ASCII as latin1)`,
    );
    notes.push(
      `6: reference — SDK StdioClientTransport with maxBufferSize 64 MiB: ${fmtMs(b.sdk)} [${list(b.samples.sdk)}]; with its default 10 MiB buffer the call fails: "${b.sdkDefault}"`,
    );
  });

  await section('cache', async () => {
    const c = await benchCache();
    const pct = (v) => `${(v * 100).toFixed(1)}%`;
    row(
      'C1',
      `prompt cache: bytes reused from the previous request, ${c.turns}-turn session (overall)`,
      pct(c.overall),
      '',
      Number.NaN,
      '≥ 95%',
      c.overall >= 0.95,
    );
    row(
      'C2',
      `prompt cache: worst turn (turn ${c.worst.turn})`,
      pct(c.worst.share),
      '',
      Number.NaN,
      '≥ 90%',
      c.worst.share >= 0.9,
    );
    // Declaring a found tool: at the end of the list (what is sent) against native deferral, on
    // the request right after the find, in each provider's cache order.
    for (const [id, order] of [
      ['C3', 'tools first (Anthropic)'],
      ['C4', 'system first (OpenAI, Gemini)'],
    ]) {
      const w = c.ways[order];
      row(
        id,
        `prompt cache after a find (turn ${c.findTurn}), ${order}: declared last vs native defer_loading`,
        pct(w.append.find),
        pct(w.native.find),
        w.append.find / w.native.find,
        '—',
        true,
      );
      notes.push(
        `${id}: ${order} — ${Object.entries(w)
          .map(
            ([way, m]) =>
              `${way}: after the find ${pct(m.find)}, overall ${pct(m.overall)}, worst turn ${pct(m.worst.share)}`,
          )
          .join('; ')}`,
      );
    }
    notes.push(
      `C: ${c.requests} requests (tools, then messages, as the API caches them); per turn [${c.perTurn.map((t) => `${t.turn}:${(t.share * 100).toFixed(0)}`).join(' ')}]; worst single request ${pct(c.worstRequest.share)} (turn ${c.worstRequest.turn})`,
    );
  });

  await section('tui', async () => {
    const t = await benchTui();
    const ratio = t.screen / t.print;
    row(
      'U1',
      '1 MB streamed answer fully on screen: TUI vs print mode',
      fmtMs(t.screen),
      fmtMs(t.print),
      ratio,
      '≤ 2×',
      ratio <= 2,
    );
    row(
      'U2',
      'keystroke echo while ~200 KB/s streams (p50; p95 in notes)',
      fmtMs(t.echoP50),
      '50 ms',
      t.echoP50 / 50,
      '≤ 1×',
      t.echoP50 <= 50,
    );
    const limit = 300 * 1024 * 1024;
    row(
      'U3',
      `RSS after a ${t.rss.entries.toLocaleString('en-US')}-entry transcript (tool-call rounds)`,
      fmtMB(t.rss.rss),
      fmtMB(limit),
      t.rss.rss / limit,
      '≤ 1×',
      t.rss.rss <= limit,
    );
    notes.push(
      `U2: echo p95 ${fmtMs(t.echoP95)}; the TUI used ${(t.echoCpu * 100).toFixed(0)}% of a core while it streamed and echoed`,
    );
    notes.push(
      `U3: ${t.rss.turns} turns of 25 rounds × 100 get_current_time calls, RSS read after 5 s idle; at the first prompt ${fmtMB(t.rss.rssStart)}, as the last answer showed ${fmtMB(t.rss.atEnd)}, peak ${fmtMB(t.rss.peak)}`,
    );
  });

  await section('toolbytes', async () => {
    const t = await benchToolBytes();
    const deferredBytes = t.deferred.mcpBytes + t.deferred.sectionBytes;
    const ratio = deferredBytes / t.all.mcpBytes;
    row(
      'T',
      `first-request tool bytes, ${t.all.mcpTools} realistic MCP tools: deferred vs all`,
      `${(deferredBytes / 1024).toFixed(1)} KB`,
      `${(t.all.mcpBytes / 1024).toFixed(1)} KB`,
      ratio,
      '≤ 0.10×',
      ratio <= 0.1,
    );
    notes.push(
      `T: ${t.servers} servers; MCP bytes: deferred = tool_search ${t.deferred.mcpBytes} B (+ ${t.deferred.mcpTools} MCP tools) + name list in the system prompt ${t.deferred.sectionBytes} B, all = ${t.all.mcpBytes} B; whole tools arrays with the built-ins: ${t.deferred.toolBytes} + ${t.deferred.sectionBytes} B vs ${t.all.toolBytes} B (${((t.deferred.toolBytes + t.deferred.sectionBytes) / t.all.toolBytes).toFixed(2)}×)`,
    );
  });

  await section('sandbox', async () => {
    const cost = await benchSandboxCost();
    const extra = cost.confined - cost.plain;
    row(
      'Z1',
      'sandbox: `true` confined vs unconfined, median of 100 (extra per command)',
      fmtMs(cost.confined),
      fmtMs(cost.plain),
      cost.confined / cost.plain,
      '≤ +30 ms',
      extra <= 30,
    );
    notes.push(
      `Z1: extra ${fmtMs(extra)} per command, of which wrap (building the line, or checking a reused one) ${fmtMs(cost.wrap)}`,
    );
    const q = await benchSandboxQuestions();
    row(
      'Z2',
      `questions in a scripted ${q.confined.calls}-command print session: sandbox vs --sandbox off`,
      `${q.confined.asked}`,
      `${q.off.asked}`,
      q.off.asked > 0 ? q.confined.asked / q.off.asked : Number.NaN,
      '0 confined asked',
      q.confined.asked === 0 && q.confined.calls === 20,
    );
    notes.push(`Z2: commands that failed under the sandbox: ${q.confined.failed} (of ${q.confined.calls})`);
  });

  await section('latency', async () => {
    const cancel = await cancelLatency();
    row(
      'L1',
      'TUI: Ctrl+C during a 4 MB stream → cancelled on screen',
      fmtMs(cancel.median),
      '1 s',
      cancel.median / 1000,
      '≤ 1 s',
      cancel.median <= 1000,
    );
    const cut = resultConversion();
    row(
      'L2',
      'MCP: cut a 10 MB result, one part + 1,000 parts',
      fmtMs(cut.median),
      '1 s',
      cut.median / 1000,
      '≤ 1 s',
      cut.median <= 1000,
    );
    notes.push(
      `L: were bounds in tui-fluid and mcp/results tests; samples L1 [${list(cancel.samples)}] L2 [${list(cut.samples)}] ms`,
    );
  });

  await section('sessions', async () => {
    const s = await benchSessions({ turns: 1000, reps: 5 });
    row(
      '7',
      `resume a ${s.turns.toLocaleString('en-US')}-turn session (${fmtMB(s.bytes)})`,
      fmtMs(s.resume.agent),
      fmtMs(s.resume.parse),
      s.resume.agent / s.resume.parse,
      '≤ 300 ms',
      s.resume.agent <= 300,
    );
    row(
      '8',
      'saving a turn: added time per turn',
      fmtMs(s.save.added),
      fmtMs(s.save.raw),
      s.save.added / s.save.raw,
      '≤ 2 ms',
      s.save.added <= 2,
    );
    notes.push(
      `7: baseline = reading the file and JSON.parse of every line (no validation, no replay); samples agent [${list(s.resume.samples.agent, (v) => v.toFixed(1))}] parse [${list(s.resume.samples.parse, (v) => v.toFixed(1))}] ms`,
    );
    notes.push(
      `8: a turn = user, assistant with a tool call, tool result, usage, answer (5 lines); per turn with the session recording ${fmtMs(s.save.recorded)}, without ${fmtMs(s.save.bare)}; baseline = the same lines written with one write() each`,
    );
  });
  await section('rag', async () => {
    const loadBefore = os.loadavg()[0];
    const r = await benchRag();
    const { build, load, naive, quality } = r;
    const corpus = `${build.files.toLocaleString('en-US')} files, ${fmtMB(build.bytes)}`;
    // The issue's targets are for 100 MB; scaled linearly for a smaller corpus (build only).
    const scale = Math.min(1, build.bytes / (100 * 1024 * 1024)) || 1;
    // Judged on CPU time, wall shown beside it: ~7 engineers share these 2 cores, and on a busy
    // machine wall time mostly measures the run queue (see the load average in the note).
    const naiveLoad = { wall: naive.loadMs, cpu: naive.loadCpuMs };
    cpuLimitRow(
      'K build',
      `knowledge base: index ${corpus}`,
      { wall: build.buildMs, cpu: build.buildCpuMs },
      naiveLoad,
      60_000 * scale,
      `≤ ${(60 * scale).toFixed(0)} s cpu`,
    );
    row(
      'K rss',
      'knowledge base: peak RSS while indexing',
      fmtMB(build.rssMB * 1048576),
      fmtMB(naive.rssMB * 1048576),
      build.rssMB / naive.rssMB,
      '≤ 500 MB',
      build.rssMB <= 500,
    );
    cpuLimitRow(
      'K load',
      'knowledge base: load the stored index, fresh process',
      { wall: load.loadMs, cpu: load.loadCpuMs },
      naiveLoad,
      1000,
      '≤ 1 s cpu',
    );
    cpuLimitRow(
      'K query',
      'knowledge base: query p95, top 4',
      { wall: load.queryP95, cpu: load.queryCpuP95 },
      { wall: naive.queryP95, cpu: naive.queryCpuP95 },
      50,
      '≤ 50 ms cpu',
    );
    row(
      'K hit@4',
      `knowledge base: hit@4 on ${quality.queries} README questions`,
      `${(quality.hit4 * 100).toFixed(1)}%`,
      '—',
      Number.NaN,
      '≥ 80%',
      quality.hit4 >= 0.8,
    );
    notes.push(
      `K: corpus ${r.capMB} MB cap (GEEKAGENT_BENCH_RAG_MB to change), ${build.chunks.toLocaleString('en-US')} chunks of 800/80, ${fmtMB(build.diskBytes)} on disk (index.bin + segments); baseline = naive scan (read every file; per query, substring-count the query words in every file): its build/load is reading the files, its RSS holds the text. Judged on cpu time; 1-min load average ${loadBefore.toFixed(1)} → ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} CPUs during the row (wall time on an idle machine ≈ cpu + a few s of disk)`,
    );
  });
} finally {
  killSpawnedGroups();
  await removeTempDirs();
}

const columns = ['id', 'what', 'agent', 'baseline', 'ratio', 'target', 'result'];
const header = {
  id: '#',
  what: 'measure',
  agent: 'GeekAgent',
  baseline: 'baseline',
  ratio: 'ratio',
  target: 'target',
  result: '',
};
const widths = columns.map((c) => Math.max(...[header, ...rows].map((r) => String(r[c]).length)));
const line = (r) =>
  columns
    .map((c, i) => String(r[c]).padEnd(widths[i]))
    .join('  ')
    .trimEnd();
console.log(
  `\nGeekAgent MCP bench — node ${process.version}, ${os.availableParallelism()} CPUs; 1-min load ${before.load} → ${os.loadavg()[0].toFixed(2)}, CPU pressure avg60 ${before.psi}% → ${pressure()}%`,
);
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
rows.sort((a, b) => Number.parseInt(a.id, 10) - Number.parseInt(b.id, 10) || 0);
for (const r of rows) console.log(line(r));
console.log('\nnotes:');
for (const n of notes) console.log(`  ${n}`);
const judged = rows.filter((r) => r.result !== 'ERROR');
console.log(
  `\nbench: ${judged.filter((r) => r.result === 'PASS').length} of ${rows.length} targets met (${((Date.now() - started) / 1000).toFixed(0)} s)`,
);
process.exitCode = errors > 0 ? 1 : 0;
