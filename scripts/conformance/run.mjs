#!/usr/bin/env node
// `npm run conformance`: every client scenario of @modelcontextprotocol/conformance (0.1.16)
// against scripts/conformance-client.mjs, three at a time (all at once on 2 cores makes the
// timing-sensitive sse-retry late), with a summary line. Exit 1 unless every scenario passes.
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const runner = [
  '--import',
  path.join(root, 'scripts/conformance/node20-register.mjs'),
  path.join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
];
const clientCommand = `node ${path.join(root, 'scripts/conformance-client.mjs')}`;
const PARALLEL = Number(process.env.CONFORMANCE_PARALLEL ?? 3);

const listing = execFileSync(process.execPath, [...runner, 'list', '--client'], { encoding: 'utf8' });
const only = process.argv.slice(2);
const scenarios = [...listing.matchAll(/^\s+- (\S+)/gm)]
  .map((m) => m[1])
  .filter((s) => only.length === 0 || only.includes(s));

function runScenario(scenario) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [...runner, 'client', '--command', clientCommand, '--scenario', scenario],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const passed = /OVERALL: PASSED/.test(output) && code === 0;
      const counts = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(output);
      resolve({
        scenario,
        passed,
        counts: counts ? `${counts[1]}/${counts[2]} checks` : 'no result',
        output,
      });
    });
  });
}

const results = [];
const queue = [...scenarios];
await Promise.all(
  Array.from({ length: PARALLEL }, async () => {
    for (let scenario = queue.shift(); scenario; scenario = queue.shift()) {
      const result = await runScenario(scenario);
      results.push(result);
      console.log(`${result.passed ? 'PASS' : 'FAIL'}  ${scenario}  (${result.counts})`);
    }
  }),
);

const failed = results.filter((r) => !r.passed);
for (const result of failed) console.log(`\n--- ${result.scenario} ---\n${result.output.slice(-4000)}`);
console.log(`\nconformance: ${results.length - failed.length} of ${results.length} client scenarios passed`);
process.exit(failed.length === 0 && results.length > 0 ? 0 : 1);
