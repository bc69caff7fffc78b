// Issue 14 §1: time to the first model request with 20 servers whose tool lists are cached (lazy:
// none is spawned, their 40 tools come from `~/.geekagent/cache`) against a project with no servers.
// One warm-up run per project fills the cache; then the two are measured in rotation.
import { median, rotate } from './lib.mjs';
import { makeProject, startModel, ttfrOnce, WAIT_ALL } from './startup.mjs';

export async function benchLazyStartup({ reps = 5 } = {}) {
  const model = await startModel();
  try {
    const p0 = await makeProject(0);
    const cached = await makeProject(20, 'lazy');
    await ttfrOnce(model, cached, 20, WAIT_ALL); // lists and caches the 20 servers' tools
    await ttfrOnce(model, p0, 0);
    const samples = await rotate(reps, {
      none: () => ttfrOnce(model, p0, 0),
      cached: () => ttfrOnce(model, cached, 20),
    });
    return { none: median(samples.none), cached: median(samples.cached), samples };
  } finally {
    await model.close();
  }
}
