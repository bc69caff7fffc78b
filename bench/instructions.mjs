// Row S1i (issue 39): start-up work counted in instructions, not time. valgrind's callgrind counts
// the instructions a process runs, the same count whatever else the machine is doing, so a change
// of a few per cent shows on a shared VM where time rows swing by more than that. Counted: a whole
// `node -e 0`, and the built CLI's `-p hi` (no servers, Node's compile cache warmed by two runs
// first) until its first model request (`callgrind_control -d` as the request arrives). Kernel
// work (page faults, system calls) is not counted, so this is the CPU rows' user-space share.
// Needs valgrind (`apt-get install valgrind`); skipped with a note without it.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CLI, cliEnv, firstRequestOnce, tempDir } from './lib.mjs';
import { makeProject, startModel, ttfrOnce } from './startup.mjs';

const available = (command, args) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;

/** The instruction count of the callgrind output file that ends in `suffix` in `dir`. */
function counted(dir, suffix) {
  const file = readdirSync(dir).find((name) => name.endsWith(suffix));
  if (!file) throw new Error(`callgrind wrote no ${suffix} file in ${dir}`);
  const total = /^(?:summary|totals):\s+(\d+)/m.exec(readFileSync(path.join(dir, file), 'utf8'));
  if (!total) throw new Error(`no instruction total in ${file}`);
  return Number(total[1]);
}

const callgrind = (dir) => ['--tool=callgrind', `--callgrind-out-file=${path.join(dir, 'cg.%p.out')}`];

/** Instructions of a whole `node -e 0`. */
async function nodeBaseline() {
  const dir = await tempDir('instructions-node');
  const run = spawnSync('valgrind', [...callgrind(dir), process.execPath, '-e', '0'], { stdio: 'ignore' });
  if (run.status !== 0) throw new Error(`valgrind node -e 0 exited with ${run.status}`);
  return counted(dir, '.out');
}

/** Instructions of the CLI's `-p hi` until its first model request. */
async function untilFirstRequest(model, project) {
  const dir = await tempDir('instructions-cli');
  await firstRequestOnce(
    model,
    'valgrind',
    [...callgrind(dir), process.execPath, CLI, '--trust', '-p', 'hi'],
    {
      cwd: project.dir,
      env: cliEnv(project, model.url),
      // The dump is written before the answer goes out: the CLI is waiting for it.
      atRequest: (child) => {
        execFileSync('callgrind_control', ['-d', String(child.pid)], { stdio: 'ignore' });
        return {};
      },
      timeoutMs: 180_000,
    },
  );
  return counted(dir, '.out.1');
}

/** `{ node, cli }` instruction counts (the lower of `reps` runs each), or `{ skipped }`. */
export async function benchInstructions({ reps = 2 } = {}) {
  if (!available('valgrind', ['--version']) || !available('callgrind_control', ['--version']))
    return { skipped: 'valgrind is not installed (apt-get install valgrind)' };
  const model = await startModel();
  try {
    const project = await makeProject(0);
    for (let i = 0; i < 2; i++) await ttfrOnce(model, project, 0);
    const node = [];
    const cli = [];
    for (let i = 0; i < reps; i++) {
      node.push(await nodeBaseline());
      cli.push(await untilFirstRequest(model, project));
    }
    return { node: Math.min(...node), cli: Math.min(...cli), samples: { node, cli } };
  } finally {
    await model.close();
  }
}
