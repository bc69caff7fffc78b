// Issue 19: the TUI against print mode on the same fake-model stream, in a real pty read through a
// headless xterm. Row 1: a 1 MB streamed answer, request sent → `END-OF-ANSWER` on screen (TUI) vs
// → process exit (print mode). Row 2: a keystroke's echo in the input line while ~200 KB/s streams.
// Row 3: the TUI's resident memory after a transcript of 10,000 entries (tool-call rounds).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import xterm from '@xterm/headless';
import pty from 'node-pty';
import { CLI, cliEnv, median, now, percentile, sleep } from './lib.mjs';
import { makeProject } from './startup.mjs';

const { Terminal } = xterm;

export function answer(bytes) {
  const lines = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `Line ${String(i).padStart(6, '0')} of the long answer, with some *emphasis* and \`code\`.`;
    lines.push(i % 10 === 9 ? `${line}\n` : line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n\nEND-OF-ANSWER`;
}

/** Streams `text` in `piece`-char chunks, `perTick` chunks every `delayMs` (0: all at once). */
export async function startModel({ text, piece = 1000, delayMs = 0, perTick = 1 }) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta, finish = null) =>
        `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      for (let at = 0, n = 0; at < text.length; at += piece, n++) {
        if (res.destroyed) return;
        res.write(chunk({ content: text.slice(at, at + piece) }));
        if (delayMs > 0 && n % perTick === perTick - 1) await new Promise((r) => setTimeout(r, delayMs));
      }
      res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, close: () => server.close() };
}

const env = (project, url) =>
  cliEnv(project, url, { GEEKAGENT_HOME: `${project.home}/.geekagent`, TERM: 'xterm-256color' });

/** The rows of `term`'s viewport as text (an xterm.js headless terminal). */
export function screenText(term) {
  const buffer = term.buffer.active;
  const lines = [];
  for (let i = 0; i < term.rows; i++)
    lines.push(buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? '');
  return lines.join('\n');
}

async function printOnce(project, url) {
  const t0 = now();
  const child = spawn(process.execPath, [CLI, '--trust', '-p', 'big'], {
    cwd: project.dir,
    env: env(project, url),
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  child.stdout.resume();
  await new Promise((resolve) => child.once('exit', resolve));
  return now() - t0;
}

export function tui(project, url, { nodeArgs = [], extraEnv = {} } = {}) {
  const term = new Terminal({ cols: 100, rows: 30, allowProposedApi: true });
  const child = pty.spawn(process.execPath, [...nodeArgs, CLI, '--trust'], {
    cols: 100,
    rows: 30,
    cwd: project.dir,
    env: { ...env(project, url), ...extraEnv },
  });
  let pending = 0;
  child.onData((data) => {
    pending++;
    term.write(data, () => pending--);
  });
  const screen = () => screenText(term);
  const waitUntil = (test, ms = 60_000) =>
    new Promise((resolve, reject) => {
      const end = Date.now() + ms;
      const check = () => {
        if (pending === 0 && test(screen())) return resolve(now());
        if (Date.now() > end) return reject(new Error(`bench tui: timed out; screen:\n${screen()}`));
        setTimeout(check, 2);
      };
      check();
    });
  return {
    pid: child.pid,
    send: (keys) => child.write(keys),
    screen,
    waitUntil,
    kill: (signal = 'SIGKILL') => child.kill(signal),
  };
}

export async function benchTui({ reps = 3 } = {}) {
  const project = await makeProject(0);
  const big = answer(1024 * 1024);
  const fast = await startModel({ text: big });
  const print = [];
  const screen = [];
  try {
    for (let i = 0; i < reps; i++) {
      print.push(await printOnce(project, fast.url));
      const t = tui(project, fast.url);
      try {
        await t.waitUntil((s) => s.includes('Type /help'));
        const t0 = now();
        t.send('big\r');
        screen.push((await t.waitUntil((s) => s.includes('END-OF-ANSWER'))) - t0);
      } finally {
        t.kill();
      }
    }
  } finally {
    fast.close();
  }
  const { echoes, cpuShare } = await echoLatency(project);
  const rss = await rssAfterEntries(project);
  return {
    print: median(print),
    screen: median(screen),
    echoP50: median(echoes),
    echoP95: percentile(echoes, 95),
    echoCpu: cpuShare,
    rss,
  };
}

/** ~200 KB/s: 1,000-char chunks, 2 every 10 ms; 20 keystrokes typed one after the other, each timed to its echo. */
export async function echoLatency(project, { nodeArgs = [], keys = 20 } = {}) {
  const slow = await startModel({ text: answer(2 * 1024 * 1024), piece: 1000, delayMs: 10, perTick: 2 });
  const echoes = [];
  let cpuShare = Number.NaN;
  try {
    const t = tui(project, slow.url, { nodeArgs });
    try {
      await t.waitUntil((s) => s.includes('Type /help'));
      t.send('go\r');
      await t.waitUntil((s) => /Line \d{6}/.test(s));
      const cpu0 = cpuMs(t.pid);
      const wall0 = now();
      for (let i = 0; i < keys; i++) {
        const letter = String.fromCharCode(97 + (i % 26));
        const t0 = now();
        t.send(letter);
        echoes.push(
          (await t.waitUntil((s) => (s.trimEnd().split('\n').pop() ?? '').endsWith(letter), 5_000)) - t0,
        );
      }
      cpuShare = (cpuMs(t.pid) - cpu0) / (now() - wall0);
    } finally {
      t.kill(nodeArgs.length > 0 ? 'SIGTERM' : 'SIGKILL');
    }
  } finally {
    slow.close();
  }
  return { echoes, cpuShare };
}

/** CPU time (user + system) the process used so far, in ms; NaN where /proc is not there. */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * A model that answers every request of a turn with `calls` get_current_time calls and a line of
 * text, `rounds` times, then a final answer `done-<turn>`: each round adds calls + 1 transcript entries.
 */
export async function startToolModel({ calls = 100, rounds = 25 } = {}) {
  let requests = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const n = requests++;
      const round = n % (rounds + 1);
      const turn = Math.floor(n / (rounds + 1)) + 1;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta, finish = null) =>
        `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      if (round === rounds) {
        res.end(`${chunk({ content: `done-${turn}` })}${chunk({}, 'stop')}data: [DONE]\n\n`);
        return;
      }
      let out = chunk({ content: `Round ${round} of turn ${turn}: checking the time ${calls} times.` });
      for (let i = 0; i < calls; i++) {
        const call = {
          index: i,
          id: `call_${n}_${i}`,
          type: 'function',
          function: { name: 'get_current_time', arguments: '{}' },
        };
        out += chunk({ tool_calls: [call] });
      }
      res.end(`${out}${chunk({}, 'tool_calls')}data: [DONE]\n\n`);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, close: () => server.close() };
}

/** Resident memory of a process in bytes (VmRSS; VmHWM: its peak), NaN where /proc is not there. */
export function rssOf(pid, field = 'VmRSS') {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? Number.NaN : Number(kb) * 1024;
  } catch {
    return Number.NaN;
  }
}

/** How long the TUI sits idle after the last turn before its RSS is read: V8 gives back what the turns left as garbage. */
const SETTLE_MS = 5_000;

/**
 * RSS of the TUI once its transcript has had `entries` entries: turns of tool-call rounds (no
 * compaction: the context window is set past what the turns use), typed one after the other.
 */
export async function rssAfterEntries(project, { entries = 10_000, calls = 100, rounds = 25 } = {}) {
  const perTurn = rounds * (calls + 1) + 3; // rounds of text + calls; the prompt, the answer, the summary line
  const turns = Math.ceil(entries / perTurn);
  const model = await startToolModel({ calls, rounds });
  try {
    const t = tui(project, model.url, { extraEnv: { GEEKAGENT_CONTEXT_WINDOW: '100000000' } });
    try {
      await t.waitUntil((s) => s.includes('Type /help'));
      const rssStart = rssOf(t.pid);
      for (let turn = 1; turn <= turns; turn++) {
        t.send(`turn ${turn}\r`);
        await t.waitUntil((s) => s.includes(`done-${turn}`), 300_000);
      }
      const atEnd = rssOf(t.pid);
      await sleep(SETTLE_MS);
      return {
        rss: rssOf(t.pid),
        atEnd,
        peak: rssOf(t.pid, 'VmHWM'),
        rssStart,
        entries: turns * perTurn,
        turns,
      };
    } finally {
      t.kill();
    }
  } finally {
    model.close();
  }
}
