// Row S1c (issues 31, 39): what Node's own compile cache (`module.enableCompileCache`, turned on by
// the launcher) buys on start-up row S1 (`-p hi`, no servers: spawn → first model request). Both
// variants are the built CLI, each with its own state folder, in one rotation: `on` as a user runs
// it (its cache warmed by two runs first: the first writes it, the second proves it is read), `off`
// with GEEKAGENT_CODE_CACHE=off (every start compiles the bundles it loads). Wall time and the CLI's
// CPU time until the request (bench/cpu.mjs; judged on CPU, as the wall time of a busy machine is
// mostly its run queue).
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { median, rotate } from './lib.mjs';
import { makeProject, startModel, ttfrOnce } from './startup.mjs';

export async function benchCompileCache({ reps = 7 } = {}) {
  const model = await startModel();
  try {
    const on = await makeProject(0);
    const off = await makeProject(0);
    const run = (project, extraEnv) => ttfrOnce(model, project, 0, extraEnv, { cpu: true });
    const variants = {
      on: () => run(on, {}),
      off: () => run(off, { GEEKAGENT_CODE_CACHE: 'off' }),
    };
    for (let i = 0; i < 2; i++) for (const variant of Object.values(variants)) await variant();
    const both = await rotate(reps, variants);
    await Promise.all([on, off].map((p) => rm(path.dirname(p.dir), { recursive: true, force: true })));
    const pick = (key) => ({ on: both.on.map((x) => x[key]), off: both.off.map((x) => x[key]) });
    const samples = { wall: pick('wall'), cpu: pick('cpu') };
    const medians = (key) => ({ on: median(samples[key].on), off: median(samples[key].off) });
    return { node: process.version, wall: medians('wall'), cpu: medians('cpu'), samples };
  } finally {
    await model.close();
  }
}
