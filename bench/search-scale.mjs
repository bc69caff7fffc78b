// Search scale: the search module against MiniSearch 7 (BM25 set to k 1.2, b 0.75, d 0 — plain
// BM25 — with our tokenizer), on the same real corpus (bench/search/corpus.mjs, ~100 MB in
// 800/80 chunks, the knowledge base's shape). Each side builds, queries, serialises and then loads
// in its own fresh process (memory is its own). Needs `npm run build` first; MiniSearch is only
// measured when it is installed.   node bench/search-scale.mjs [capMB] [ours|minisearch…]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const [capArg, ...engineArgs] = process.argv.slice(2);
const cap = capArg ?? '100';
let engines = engineArgs.length > 0 ? engineArgs : ['ours', 'minisearch'];
try {
  await import('minisearch');
} catch {
  engines = engines.filter((e) => e !== 'minisearch');
  console.log('(MiniSearch is not installed: measuring the search module alone)');
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'geekagent-search-bench-'));
function child(mode, engine) {
  const file = path.join(dir, `${engine}.json`);
  const r = spawnSync(
    process.execPath,
    ['--expose-gc', path.join(here, 'search', 'scale-child.mjs'), mode, engine, file, cap],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (r.status !== 0) throw new Error(`${engine} ${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1));
}

const ms = (v) => `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ms`;
const mb = (v) => `${v.toFixed(0)} MB`;
const results = {};
try {
  for (const engine of engines)
    results[engine] = { build: child('build', engine), load: child('load', engine) };
} finally {
  rmSync(dir, { recursive: true, force: true });
}
let pressure = 'n/a';
try {
  pressure = readFileSync('/proc/pressure/cpu', 'utf8')
    .split('\n')[0]
    .match(/avg60=([\d.]+)/)[1];
} catch {}
const first = results[engines[0]].build;
console.log(`(CPU pressure avg60 ${pressure}%: on a busy machine wall times run high, cpu columns less so)`);
console.log(
  `corpus: ${first.files} files, ${(first.bytes / 1048576).toFixed(1)} MB, ${first.chunks} chunks of 800/80`,
);
const rows = [
  ['build: read + chunk + index, wall / cpu', (r) => `${ms(r.build.buildMs)} / ${ms(r.build.buildCpuMs)}`],
  ['index memory (heap + buffers)', (r) => mb(r.build.heapMB)],
  [
    'RSS after build / after serialise',
    (r) => `${mb(r.build.rssAfterBuildMB)} / ${mb(r.build.rssAfterSerializeMB)}`,
  ],
  ['peak RSS of the build process', (r) => mb(r.build.maxRssMB)],
  ['query p50 / p95, wall', (r) => `${ms(r.build.queries.p50)} / ${ms(r.build.queries.p95)}`],
  ['query p50 / p95, cpu', (r) => `${ms(r.build.queries.cpuP50)} / ${ms(r.build.queries.cpuP95)}`],
  ['serialise (JSON.stringify)', (r) => ms(r.build.serializeMs)],
  ['JSON size', (r) => mb(r.build.jsonBytes / 1048576)],
  ['load: read + parse + restore, wall / cpu', (r) => `${ms(r.load.loadMs)} / ${ms(r.load.loadCpuMs)}`],
  [
    '  cpu of read / JSON.parse / restore',
    (r) =>
      r.load.engine === 'minisearch'
        ? `${ms(r.load.readCpuMs)} / (in loadJSON)`
        : `${ms(r.load.readCpuMs)} / ${ms(r.load.parseCpuMs)} / ${ms(r.load.loadCpuMs - r.load.readCpuMs - r.load.parseCpuMs)}`,
  ],
  ['memory after load', (r) => mb(r.load.heapMB)],
  ['peak RSS of the loading process', (r) => mb(r.load.maxRssMB)],
  ['query p50 / p95 after load, wall', (r) => `${ms(r.load.queries.p50)} / ${ms(r.load.queries.p95)}`],
  ['query p50 / p95 after load, cpu', (r) => `${ms(r.load.queries.cpuP50)} / ${ms(r.load.queries.cpuP95)}`],
];
const width = Math.max(...rows.map(([n]) => n.length));
console.log(`${''.padEnd(width)}  ${engines.map((e) => e.padEnd(30)).join('')}`);
for (const [name, f] of rows)
  console.log(`${name.padEnd(width)}  ${engines.map((e) => f(results[e]).padEnd(30)).join('')}`);
for (const engine of engines) {
  const same =
    JSON.stringify(results[engine].build.queries.tops) === JSON.stringify(results[engine].load.queries.tops);
  console.log(`${engine}: loaded index answers ${same ? 'the same' : 'DIFFERENTLY from'} the built one`);
}
