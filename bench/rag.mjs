// The knowledge base at scale and its retrieval quality (rows for `npm run bench`): a real corpus
// (bench/search/corpus.mjs: node_modules text, then /usr/include) through the real RagStore —
// build, then a fresh process loads it and answers the README questions — beside a naive scan
// (read every file, substring-count the query words). Default 100 MB, the target size
// (~14,500 files indexed; about 2 minutes for the whole row on an idle 2-core machine);
// GEEKAGENT_BENCH_RAG_MB=20 for a quick run.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

function child(...args) {
  const r = spawnSync(process.execPath, [path.join(here, 'rag-child.mjs'), ...args.map(String)], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`rag ${args[0]} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1));
}

export async function benchRag({ capMB = Number(process.env.GEEKAGENT_BENCH_RAG_MB ?? 100) } = {}) {
  const dir = await tempDir('rag');
  const build = child('build', dir, capMB);
  const load = child('load', dir);
  const naive = child('naive', capMB);
  const quality = child('quality', await tempDir('rag-quality'));
  return { capMB, build, load, naive, quality };
}
