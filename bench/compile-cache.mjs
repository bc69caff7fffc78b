// Issue 31 §2: Node's own compile cache (`module.enableCompileCache`, Node 22.1+) against the
// launcher's V8 code cache, on start-up row S1 (`-p hi`, no servers: spawn → first model request).
// Both runs are the built CLI; GEEKAGENT_CODE_CACHE picks the cache (`node` or `v8`), each with its
// own warmed state folder, in one rotation. On a Node without the built-in cache there is nothing
// to compare: the row says so.
import { rm } from 'node:fs/promises';
import * as nodeModule from 'node:module';
import path from 'node:path';
import { median, rotate } from './lib.mjs';
import { makeProject, startModel, ttfrOnce } from './startup.mjs';

export const builtInCacheAvailable = () => typeof nodeModule.enableCompileCache === 'function';

export async function benchCompileCache({ reps = 7 } = {}) {
  if (!builtInCacheAvailable()) return { available: false, node: process.version };
  const model = await startModel();
  try {
    const node = await makeProject(0);
    const v8 = await makeProject(0);
    const run = (project, cache) => ttfrOnce(model, project, 0, { GEEKAGENT_CODE_CACHE: cache });
    // Two warm-ups each: the first writes its cache, the second proves it is read.
    for (let i = 0; i < 2; i++) {
      await run(node, 'node');
      await run(v8, 'v8');
    }
    const samples = await rotate(reps, { node: () => run(node, 'node'), v8: () => run(v8, 'v8') });
    await Promise.all([node, v8].map((p) => rm(path.dirname(p.dir), { recursive: true, force: true })));
    return { available: true, node: process.version, ...medians(samples), samples };
  } finally {
    await model.close();
  }
}

const medians = (samples) => ({ nodeMs: median(samples.node), v8Ms: median(samples.v8) });
