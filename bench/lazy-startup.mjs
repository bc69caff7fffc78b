// Issue 14 §1: time to the first model request with 20 servers whose tool lists are cached (lazy:
// none is spawned, their 40 tools come from `~/.geekagent/cache`) against a project with no servers.
// One warm-up run per project fills the cache; then the two are measured in rotation, wall time and
// the CLI's CPU time until the request (bench/cpu.mjs; the row is judged on CPU: on a busy machine
// the wall time of two near-equal starts is mostly the run queue).
import { median, rotate } from './lib.mjs';
import { makeProject, startModel, ttfrOnce, WAIT_ALL } from './startup.mjs';

export async function benchLazyStartup({ reps = 5 } = {}) {
  const model = await startModel();
  try {
    const p0 = await makeProject(0);
    const cached = await makeProject(20, 'lazy');
    await ttfrOnce(model, cached, 20, WAIT_ALL); // lists and caches the 20 servers' tools
    await ttfrOnce(model, p0, 0);
    const both = await rotate(reps, {
      none: () => ttfrOnce(model, p0, 0, {}, { cpu: true }),
      cached: () => ttfrOnce(model, cached, 20, {}, { cpu: true }),
    });
    const pick = (key) => ({ none: both.none.map((x) => x[key]), cached: both.cached.map((x) => x[key]) });
    const samples = pick('wall');
    const cpuSamples = pick('cpu');
    return {
      none: median(samples.none),
      cached: median(samples.cached),
      cpu: { none: median(cpuSamples.none), cached: median(cpuSamples.cached) },
      samples,
      cpuSamples,
    };
  } finally {
    await model.close();
  }
}
