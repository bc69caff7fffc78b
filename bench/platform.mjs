// Issue 39 §Performance: the move from Node 20 to Node 24, measured rather than assumed. The
// previous release's build (a checkout of the last commit on Node 20, its `npm ci` and
// `npm run build` done with Node 20: the custom V8 code cache) runs on Node 20; this checkout's
// build runs on this Node (24: Node's compile cache). Start-up rows S1 (`-p hi` → first model
// request), S2 (`--version`) and S3 (TUI first frame) for both, and each Node's own `node -e 0`,
// all eight in one rotation so every variant sees the same machine load; medians of wall time and
// of the CPU time each process used until the same point (bench/cpu.mjs: on a shared machine the
// wall time is mostly queueing, the CPU time is not). The wall time of the two that exit by
// themselves is wait4's, from spawn to reaping (cpu.mjs), without the bench's own spawn path.
//
//   GEEKAGENT_BENCH_OLD=/path/to/old-checkout   (its dist/cli/main.js built; unset: section skipped)
//   GEEKAGENT_BENCH_OLD_NODE=/usr/bin/node      (the Node the old build runs on; this is the default)
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { cpuMeasurable, timedRun } from './cpu.mjs';
import { CLI, median, rotate } from './lib.mjs';
import { makeProject, startModel, ttfrOnce } from './startup.mjs';
import { firstFrameOnce, wallOnce } from './startup-targets.mjs';

/** Where the old build is, or why the section cannot run (a note, not an error). */
export function oldBuild(env = process.env) {
  const dir = env.GEEKAGENT_BENCH_OLD;
  const node = env.GEEKAGENT_BENCH_OLD_NODE || '/usr/bin/node';
  const how =
    'set GEEKAGENT_BENCH_OLD to a checkout of the previous release built on its Node (bench/README.md, "Node 20 → 24")';
  if (!dir) return { ok: false, why: `no old build: ${how}` };
  const cli = path.join(path.resolve(dir), 'dist', 'cli', 'main.js');
  if (!existsSync(cli)) return { ok: false, why: `no ${cli}: build it there with npm run build; ${how}` };
  if (!existsSync(node)) return { ok: false, why: `no Node at ${node} (GEEKAGENT_BENCH_OLD_NODE)` };
  return { ok: true, dir: path.resolve(dir), cli, node };
}

const quiet = (command, args) => {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '?';
  }
};

export async function benchPlatform(old, { reps = 11 } = {}) {
  const model = await startModel();
  try {
    const sides = {
      old: { node: old.node, cli: old.cli, project: await makeProject(0) },
      new: { node: process.execPath, cli: CLI, project: await makeProject(0) },
    };
    const variants = {};
    for (const [side, s] of Object.entries(sides)) {
      const how = { node: s.node, cli: s.cli, cpu: true };
      // Without a way to measure CPU time: wall time only (the CPU rows say NaN).
      const exits = cpuMeasurable
        ? timedRun
        : async (...args) => ({ wall: await wallOnce(...args), cpu: Number.NaN });
      variants[`${side}Node`] = () => exits(s.node, ['-e', '0']);
      variants[`${side}Version`] = () => exits(s.node, [s.cli, '--version'], { expect: '.' });
      variants[`${side}Print`] = () => ttfrOnce(model, s.project, 0, {}, how);
      variants[`${side}Frame`] = () => firstFrameOnce(s.project, model.url, how);
    }
    // Two warm-ups each: the file cache, then each build's code cache written and read once.
    for (let i = 0; i < 2; i++) for (const run of Object.values(variants)) await run();
    const both = await rotate(reps, variants);
    const pick = (key) => Object.fromEntries(Object.entries(both).map(([k, v]) => [k, v.map((x) => x[key])]));
    const samples = { wall: pick('wall'), cpu: pick('cpu') };
    const side = (name, key) => {
      const m = (variant) => median(samples[key][`${name}${variant}`]);
      return { nodeMs: m('Node'), version: m('Version'), print: m('Print'), frame: m('Frame') };
    };
    return {
      oldCommit: quiet('git', ['-C', old.dir, 'rev-parse', '--short', 'HEAD']),
      oldNode: quiet(old.node, ['-p', 'process.version']),
      newNode: process.version,
      wall: { old: side('old', 'wall'), new: side('new', 'wall') },
      cpu: { old: side('old', 'cpu'), new: side('new', 'cpu') },
      samples,
    };
  } finally {
    await model.close();
  }
}
