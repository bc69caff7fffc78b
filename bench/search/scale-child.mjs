// One side of the search scale bench, in its own process so memory is its own:
//   node --expose-gc scale-child.mjs build <ours|minisearch> <index file>   → JSON result line
//   node --expose-gc scale-child.mjs load  <ours|minisearch> <index file>   → JSON result line
// build: read every corpus file, chunk it (800/80, the knowledge base's), index the chunks, time
// the queries, serialise to the file. load: read + parse + restore, time the queries again.
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import {
  chunkText,
  createAnalyzer,
  createIndex,
  ENGLISH_STOP_WORDS,
  loadIndex,
} from '../../dist/search/index.js';
import { listCorpus, readText } from './corpus.mjs';
import { SCALE_QUERIES } from './queries.mjs';

const [mode, engine, file, capMB = '100'] = process.argv.slice(2);
const gc = () => globalThis.gc?.();
/** Live JS heap plus ArrayBuffer backing stores (typed-array postings live there), after a GC. */
const heapMB = () => {
  gc();
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 1024 / 1024;
};
const analyzer = createAnalyzer();
const queryTerms = (q) => {
  const all = analyzer.terms(q);
  const kept = [];
  for (const token of q.toLowerCase().split(/[^\p{L}\p{N}]+/u))
    if (token && ENGLISH_STOP_WORDS.has(token)) kept.push(token);
  const stop = new Set(kept.map((t) => analyzer.term(t)));
  const rest = all.filter((t) => !stop.has(t));
  return rest.length > 0 ? rest : all;
};

let MiniSearch;
if (engine === 'minisearch') MiniSearch = (await import('minisearch')).default;
const MINI_OPTIONS = {
  fields: ['text'],
  tokenize: (text) => analyzer.terms(text),
  processTerm: (term) => term,
  searchOptions: { bm25: { k: 1.2, b: 0.75, d: 0 }, tokenize: queryTerms, processTerm: (t) => t },
};

/** Wall and CPU time per query (CPU: this process's user + system time, so a busy machine's other
 * work is not counted), nearest-rank percentiles over 5 rounds of the query list. */
function timeQueries(search) {
  const times = [];
  const cpu = [];
  const tops = [];
  for (let round = 0; round < 5; round++) {
    for (const q of SCALE_QUERIES) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const hits = search(q);
      times.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      if (round === 0) tops.push(hits.slice(0, 4).map((h) => h.id));
    }
  }
  const pct = (values, p) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  };
  return { p50: pct(times, 50), p95: pct(times, 95), cpuP50: pct(cpu, 50), cpuP95: pct(cpu, 95), tops };
}
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

const searchWith = (index) =>
  engine === 'minisearch' ? (q) => index.search(q).slice(0, 4) : (q) => index.search(q, { limit: 4 });

if (mode === 'build') {
  const corpus = listCorpus(Number(capMB) * 1024 * 1024);
  const base = heapMB();
  const cpu0 = cpuMs();
  const t0 = performance.now();
  const index =
    engine === 'minisearch' ? new MiniSearch(MINI_OPTIONS) : createIndex({ fields: { text: {} } });
  let chunks = 0;
  let bytes = 0;
  let files = 0;
  for (const f of corpus.files) {
    const text = readText(f.path);
    if (text === undefined) continue;
    files++;
    bytes += f.size;
    for (const c of chunkText(text, 800, 80)) {
      const id = `${f.path}:${c.line}`;
      if (engine === 'minisearch') index.add({ id: `${id}#${chunks}`, text: c.text });
      else index.add(`${id}#${chunks}`, { text: c.text });
      chunks++;
    }
  }
  const buildMs = performance.now() - t0;
  const buildCpuMs = cpuMs() - cpu0;
  const rssAfterBuildMB = process.memoryUsage().rss / 1024 / 1024;
  const heap = heapMB() - base;
  const queries = timeQueries(searchWith(index));
  const t1 = performance.now();
  const json = JSON.stringify(index);
  const serializeMs = performance.now() - t1;
  const rssAfterSerializeMB = process.memoryUsage().rss / 1024 / 1024;
  writeFileSync(file, json);
  const maxRssMB = process.resourceUsage().maxRSS / 1024;
  console.log(
    JSON.stringify({
      engine,
      files,
      bytes,
      chunks,
      buildMs,
      buildCpuMs,
      rssAfterBuildMB,
      rssAfterSerializeMB,
      heapMB: heap,
      maxRssMB,
      serializeMs,
      jsonBytes: json.length,
      queries,
    }),
  );
} else if (mode === 'load') {
  const base = heapMB();
  const cpu0 = cpuMs();
  const t0 = performance.now();
  const text = readFileSync(file, 'utf8');
  const readCpuMs = cpuMs() - cpu0;
  let index;
  let parseCpuMs = 0;
  if (engine === 'minisearch') index = MiniSearch.loadJSON(text, MINI_OPTIONS);
  else {
    const parsed = JSON.parse(text);
    parseCpuMs = cpuMs() - cpu0 - readCpuMs;
    index = loadIndex(parsed);
  }
  const loadMs = performance.now() - t0;
  const loadCpuMs = cpuMs() - cpu0;
  const queries = timeQueries(searchWith(index));
  const heap = heapMB() - base;
  const maxRssMB = process.resourceUsage().maxRSS / 1024;
  console.log(
    JSON.stringify({ engine, loadMs, loadCpuMs, readCpuMs, parseCpuMs, heapMB: heap, maxRssMB, queries }),
  );
}
