// One measured step of the knowledge-base bench in its own process (so RSS is its own):
//   build <dir> <capMB>  — RagStore.add of the corpus, one file read at a time (read, chunk 800/80,
//                          index, segment files, save index.bin)
//   load <dir>           — a fresh RagStore loads the stored index and answers the queries
//   naive <capMB>        — read every file, then answer each query by scanning all the text
//   quality <dir>        — README questions against a RagStore of node_modules READMEs: hit@4
// Prints one JSON line. Uses the built code (dist/).

import { RagStore } from '../dist/rag/store.js';
import { evaluateQueries, hitAt } from '../dist/search/index.js';
import { listCorpus, readText } from './search/corpus.mjs';
import { loadDocQueries, loadReadmes } from './search/quality-data.mjs';

const [mode, arg, capArg] = process.argv.slice(2);
const now = () => performance.now();
const rssMB = () => process.resourceUsage().maxRSS / 1024;
const queries = loadDocQueries().map((q) => q.query);
const p95 = (values) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1];

function* corpusItems(capMB) {
  for (const file of listCorpus(capMB * 1024 * 1024).files) {
    const text = readText(file.path);
    if (text === undefined) yield { kind: 'skipped', key: file.path, reason: 'binary' };
    else yield { kind: 'text', key: file.path, text, bytes: file.size };
  }
}

const cpuMs = (since) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

/** p95 of wall time and of CPU time (on a busy machine wall time mostly measures the queue). */
async function timeQueries(answer) {
  const wall = [];
  const cpu = [];
  for (let round = 0; round < 3; round++) {
    for (const q of queries) {
      const t = now();
      const c = process.cpuUsage();
      await answer(q);
      cpu.push(cpuMs(c));
      wall.push(now() - t);
    }
  }
  return { queryP95: p95(wall), queryCpuP95: p95(cpu) };
}

let out;
if (mode === 'build') {
  const store = new RagStore(arg);
  const t = now();
  const c = process.cpuUsage();
  const results = await store.add(corpusItems(Number(capArg)));
  const buildMs = now() - t;
  out = {
    buildMs,
    buildCpuMs: cpuMs(c),
    files: results.filter((r) => r.kind === 'indexed').length,
    ...store.stats,
    diskBytes: await store.diskBytes(),
    rssMB: rssMB(),
  };
} else if (mode === 'load') {
  const store = new RagStore(arg);
  const t = now();
  const c = process.cpuUsage();
  await store.load();
  const loadMs = now() - t;
  const loadCpuMs = cpuMs(c);
  out = { loadMs, loadCpuMs, ...(await timeQueries((q) => store.search(q, 4))), rssMB: rssMB() };
} else if (mode === 'naive') {
  const t = now();
  const c = process.cpuUsage();
  const docs = [];
  for (const file of listCorpus(Number(arg) * 1024 * 1024).files) {
    const text = readText(file.path);
    if (text !== undefined) docs.push({ source: file.path, lower: text.toLowerCase() });
  }
  const loadMs = now() - t;
  const loadCpuMs = cpuMs(c);
  const times = await timeQueries(async (q) => {
    const words = q
      .toLowerCase()
      .split(/\W+/)
      .filter((w) => w.length > 2);
    const scored = [];
    for (const d of docs) {
      let score = 0;
      for (const w of words) if (d.lower.includes(w)) score++;
      if (score > 0) scored.push([score, d.source]);
    }
    return scored.sort((a, b) => b[0] - a[0]).slice(0, 4);
  });
  out = { loadMs, loadCpuMs, ...times, rssMB: rssMB() };
} else if (mode === 'quality') {
  const store = new RagStore(arg);
  await store.add(
    loadReadmes().map((r) => ({ kind: 'text', key: r.source, text: r.text, bytes: r.text.length })),
  );
  const outcomes = [];
  for (const q of loadDocQueries()) {
    const hits = await store.search(q.query, 4);
    outcomes.push(...evaluateQueries([q], () => hits.map((h) => h.source)));
  }
  out = { hit4: hitAt(outcomes, 4), queries: outcomes.length };
} else {
  throw new Error(`unknown mode ${mode}`);
}
console.log(JSON.stringify(out));
