// Issue 19: the TUI against print mode on the same fake-model stream, in a real pty read through a
// headless xterm. Row 1: a 1 MB streamed answer, request sent → `END-OF-ANSWER` on screen (TUI) vs
// → process exit (print mode). Row 2: a keystroke's echo in the input line while ~200 KB/s streams.
import { spawn } from 'node:child_process';
import http from 'node:http';
import xterm from '@xterm/headless';
import pty from 'node-pty';
import { CLI, median, now, percentile } from './lib.mjs';
import { makeProject } from './startup.mjs';

const { Terminal } = xterm;

function answer(bytes) {
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
async function startModel({ text, piece = 1000, delayMs = 0, perTick = 1 }) {
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

const env = (project, url) => ({
  PATH: process.env.PATH,
  HOME: project.home,
  GEEKAGENT_HOME: `${project.home}/.geekagent`,
  LANG: 'C.UTF-8',
  TERM: 'xterm-256color',
  OPENAI_API_KEY: 'x',
  OPENAI_BASE_URL: url,
  OPENAI_MODEL: 'bench-model',
  GEEKAGENT_MAX_RETRIES: '0',
});

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

function tui(project, url) {
  const term = new Terminal({ cols: 100, rows: 30, allowProposedApi: true });
  const child = pty.spawn(process.execPath, [CLI, '--trust'], {
    cols: 100,
    rows: 30,
    cwd: project.dir,
    env: env(project, url),
  });
  let pending = 0;
  child.onData((data) => {
    pending++;
    term.write(data, () => pending--);
  });
  const screen = () => {
    const buffer = term.buffer.active;
    const lines = [];
    for (let i = 0; i < term.rows; i++)
      lines.push(buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
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
  return { send: (keys) => child.write(keys), waitUntil, kill: () => child.kill('SIGKILL') };
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
  // ~200 KB/s: 1,000-char chunks, 2 every 10 ms, for 10 s.
  const slow = await startModel({ text: answer(2 * 1024 * 1024), piece: 1000, delayMs: 10, perTick: 2 });
  const echoes = [];
  try {
    const t = tui(project, slow.url);
    try {
      await t.waitUntil((s) => s.includes('Type /help'));
      t.send('go\r');
      await t.waitUntil((s) => /Line \d{6}/.test(s));
      for (let i = 0; i < 20; i++) {
        const letter = String.fromCharCode(97 + i);
        const t0 = now();
        t.send(letter);
        echoes.push(
          (await t.waitUntil((s) => (s.trimEnd().split('\n').pop() ?? '').endsWith(letter), 5_000)) - t0,
        );
      }
    } finally {
      t.kill();
    }
  } finally {
    slow.close();
  }
  return {
    print: median(print),
    screen: median(screen),
    echoP50: median(echoes),
    echoP95: percentile(echoes, 95),
  };
}
