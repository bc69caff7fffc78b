// CPU time of a measured process, beside its wall time: on a machine shared with other work the
// wall time of a short start-up is mostly time spent waiting to run (the run queue), while the CPU
// time it used is nearly the same busy or calm. Linux only (/proc; the platform section uses it).
//   cpuSoFar(pid): what a live process has used so far, all its threads (schedstat, ns precision)
//   timedRun(...): spawn → exit of a process that ends by itself, wall and CPU from wait4(2) (its
//                  rusage, µs): Node has no wait4, so a few lines of Python spawn and reap it
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { killQuietly, ROOT, spawnGroup } from './lib.mjs';

/** ms of CPU the live process `pid` has used, all its threads; NaN once it is gone. */
export function cpuSoFar(pid) {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`))
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    return ns / 1e6;
  } catch {
    return Number.NaN;
  }
}

// Reports on fd 3, so the child's own output stays on stdout/stderr.
const REAPER = `
import os, sys, time
t = time.perf_counter()
pid = os.posix_spawnp(sys.argv[1], sys.argv[1:], dict(os.environ))
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - t
os.write(3, f"{wall * 1000} {(ru.ru_utime + ru.ru_stime) * 1000} {os.waitstatus_to_exitcode(status)}".encode())
`;

// The system's own Python (a version manager's shim would add its start to every run).
const PYTHON = '/usr/bin/python3';

/** Whether this machine can measure CPU time this way (Linux with /usr/bin/python3); else wall only. */
export const cpuMeasurable = process.platform === 'linux' && existsSync(PYTHON);

/** { wall, cpu } ms of `command args` from spawn to exit; throws on a non-zero exit or a missing `expect`. */
export async function timedRun(command, args, { cwd = ROOT, env = { PATH: process.env.PATH }, expect } = {}) {
  const child = spawnGroup(PYTHON, ['-c', REAPER, command, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let report = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  child.stdio[3].on('data', (c) => (report += c));
  const timer = setTimeout(() => killQuietly(-child.pid), 30_000);
  const code = await new Promise((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  const [wall, cpu, status] = report.split(' ').map(Number);
  if (code !== 0 || status !== 0)
    throw new Error(`${path.basename(args[0] ?? command)} exited with ${status ?? code}:\n${out}`);
  if (expect && !out.includes(expect)) throw new Error(`expected ${expect} in:\n${out}`);
  return { wall, cpu };
}
