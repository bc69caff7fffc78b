// Issue 18 §Start-up: how fast the binary starts, against `node -e 0` (and, for `mcp list`, a plain
// SDK script doing the same connect). Every variant is a fresh process, measured in one rotation so
// each sees the same machine load; medians. Rows:
//   S1 `geekagent -p hi`, no servers: spawn → first POST /chat/completions at the fake model
//   S2 `geekagent --version`: spawn → exit
//   S3 TUI (pty, no servers): spawn → the input line `›` and the panel's Model row on screen
//   S4 `geekagent mcp list`, one demo server: spawn → exit, vs `node sdk-list-child.mjs` (SDK Client +
//      StdioClientTransport: connect, listTools, print the names, close) → exit
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import xterm from '@xterm/headless';
import pty from 'node-pty';
import { cpuMeasurable, cpuSoFar, timedRun } from './cpu.mjs';
import { CLI, cliEnv, DEMO, killQuietly, median, now, ROOT, rotate, spawnGroup } from './lib.mjs';
import { makeProject, startModel, ttfrOnce } from './startup.mjs';
import { screenText } from './tui.mjs';

const { Terminal } = xterm;
const SDK_LIST = path.join(ROOT, 'bench', 'sdk-list-child.mjs');

function modelEnv(project, url) {
  return cliEnv(project, url, {
    GEEKAGENT_HOME: path.join(project.home, '.geekagent'),
    TERM: 'xterm-256color',
  });
}

/** ms from spawn to exit of `command args`; throws on a non-zero exit or when `expect` is not in stdout. */
export async function wallOnce(command, args, { cwd = ROOT, env = { PATH: process.env.PATH }, expect } = {}) {
  const t0 = now();
  const child = spawnGroup(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const timer = setTimeout(() => killQuietly(-child.pid), 30_000);
  const code = await new Promise((resolve) => child.once('exit', resolve));
  const elapsed = now() - t0;
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${path.basename(args[0] ?? command)} exited with ${code}:\n${out}`);
  if (expect && !out.includes(expect)) throw new Error(`expected ${expect} in:\n${out}`);
  return elapsed;
}

/** ms from spawning the TUI in a pty until its input line and panel are drawn ({ wall, cpu } with `cpu`). */
export async function firstFrameOnce(project, url, { node = process.execPath, cli = CLI, cpu = false } = {}) {
  const term = new Terminal({ cols: 100, rows: 30, allowProposedApi: true });
  const t0 = now();
  const child = pty.spawn(node, [cli, '--trust'], {
    name: 'xterm-256color',
    cols: 100,
    rows: 30,
    cwd: project.dir,
    env: modelEnv(project, url),
  });
  let pending = 0;
  let seen;
  let used;
  const drawn = new Promise((resolve) => (seen = resolve));
  const screen = () => screenText(term);
  child.onData((data) => {
    pending++;
    // Checked as each write lands: no polling delay in the measure.
    term.write(data, () => {
      pending--;
      const text = screen();
      const last = text.trimEnd().split('\n').pop() ?? '';
      if (pending === 0 && last.startsWith('›') && text.includes('Model ')) {
        const at = now();
        seen(at);
        used ??= cpu ? cpuSoFar(child.pid) : undefined;
      }
    });
  });
  const timer = setTimeout(() => seen(Number.NaN), 30_000);
  const exited = new Promise((resolve) => child.onExit(resolve));
  try {
    const at = await drawn;
    if (Number.isNaN(at)) throw new Error(`TUI drew no input line within 30 s; screen:\n${screen()}`);
    // Left as a person leaves it (Ctrl+C), so the run ends as theirs do: its code cache written.
    child.write('\x03');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    return cpu ? { wall: at - t0, cpu: used } : at - t0;
  } finally {
    clearTimeout(timer);
    killQuietly(-child.pid);
    term.dispose();
  }
}

async function oneServerHome(base) {
  const dir = path.join(base.home, '.geekagent');
  await mkdir(dir, { recursive: true });
  const mcpServers = { demo: { command: process.execPath, args: [DEMO] } };
  await writeFile(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers }, null, 2));
}

export async function benchStartupTargets({ reps = 7 } = {}) {
  const model = await startModel();
  try {
    const p0 = await makeProject(0);
    const listed = await makeProject(0);
    await oneServerHome(listed);
    const node = () => wallOnce(process.execPath, ['-e', '0']);
    const version = () => wallOnce(process.execPath, [CLI, '--version'], { expect: '.' });
    const ttfr = () => ttfrOnce(model, p0, 0, {}, { cpu: true });
    const frame = () => firstFrameOnce(p0, model.url, { cpu: true });
    // CPU time beside the wall time (bench/cpu.mjs): a run of its own for the two that exit.
    const nodeCpu = async () => (await timedRun(process.execPath, ['-e', '0'])).cpu;
    const versionCpu = async () =>
      (await timedRun(process.execPath, [CLI, '--version'], { expect: '.' })).cpu;
    const list = () =>
      wallOnce(process.execPath, [CLI, 'mcp', 'list'], {
        cwd: listed.dir,
        env: modelEnv(listed, model.url),
        expect: 'word_count',
      });
    const sdk = () => wallOnce(process.execPath, [SDK_LIST, DEMO], { cwd: listed.dir, expect: 'word_count' });
    // Warm-up: the file cache for every path measured.
    const all = { node, version, ttfr, frame, list, sdk, ...(cpuMeasurable ? { nodeCpu, versionCpu } : {}) };
    for (const run of Object.values(all)) await run();
    const raw = await rotate(reps, all);
    const samples = { ...raw, ttfr: raw.ttfr.map((x) => x.wall), frame: raw.frame.map((x) => x.wall) };
    const cpuSamples = {
      node: raw.nodeCpu ?? [],
      version: raw.versionCpu ?? [],
      ttfr: raw.ttfr.map((x) => x.cpu),
      frame: raw.frame.map((x) => x.cpu),
    };
    const medians = (of) => Object.fromEntries(Object.entries(of).map(([k, v]) => [k, median(v)]));
    return { ...medians(samples), cpu: medians(cpuSamples), samples, cpuSamples };
  } finally {
    await model.close();
  }
}
