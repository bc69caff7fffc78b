// Which functions of the built bundles a start calls: the CLI just built runs a few turns (in a
// temporary home and projects, against a model server here that answers at once) under V8's
// `--log-function-events`, and the logs say which functions were compiled at their first call.
// eager-functions.mjs then has those compiled with their file, so Node's compile cache keeps them.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

/** A turn that takes longer than this is not a start worth profiling: the build goes on without. */
const RUN_LIMIT_MS = 60_000;
/** What the model answers: the TUI's turn is over once this is on its screen with the turn's ✓. */
const ANSWER = 'profile-answer';
const LOG_ARGS = (log) => ['--log-function-events', `--logfile=${log}`, '--no-logfile-per-isolate'];

/**
 * For each file under `outdir` the turns ran: the end offsets of the functions V8 compiled when they
 * were first called (parsed in full only then). Three turns: `-p` in a bare project; `-p` in one
 * that declares a lazily started MCP server (`server`, a script) whose tools a first, unprofiled
 * turn cached, as most starts with servers are; and the TUI in a pseudo-terminal (node-pty): its
 * first frame, one message, its answer, Ctrl+C. `notes` says what could not be profiled (no
 * node-pty). Throws with a turn's output when one fails.
 */
export async function profileStart(launcher, outdir, server) {
  const base = mkdtempSync(path.join(tmpdir(), 'geekagent-start-profile-'));
  const model = await startModel();
  try {
    const home = path.join(base, 'home');
    mkdirSync(home);
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      GEEKAGENT_HOME: path.join(home, '.geekagent'),
      LANG: 'C.UTF-8',
      OPENAI_API_KEY: 'profile',
      OPENAI_BASE_URL: model.url,
      OPENAI_MODEL: 'profile-model',
      GEEKAGENT_MAX_RETRIES: '0',
      // Nothing cached: every function a turn calls is compiled, and so logged.
      GEEKAGENT_CODE_CACHE: 'off',
    };
    const bare = path.join(base, 'bare');
    mkdirSync(bare);
    const withServer = path.join(base, 'with-server');
    mkdirSync(path.join(withServer, '.geekagent'), { recursive: true });
    const mcpServers = { demo: { command: process.execPath, args: [server], startup: 'lazy' } };
    writeFileSync(path.join(withServer, '.geekagent', 'mcp.json'), JSON.stringify({ mcpServers }));
    // The first turn waits for the server and caches its tools.
    await runTurn(launcher, [], withServer, { ...env, GEEKAGENT_MCP_START_GRACE_MS: '60000' });
    const turns = [
      (log) => runTurn(launcher, LOG_ARGS(log), bare, env),
      (log) => runTurn(launcher, LOG_ARGS(log), withServer, env),
    ];
    const notes = [];
    const pty = await import('node-pty').then(
      (module) => module.default ?? module,
      (error) => notes.push(`the TUI start is not profiled: node-pty cannot be loaded (${error.message})`),
    );
    if (typeof pty?.spawn === 'function')
      turns.push((log) => runTuiTurn(pty, launcher, LOG_ARGS(log), bare, env, model));
    const byFile = new Map();
    for (const [index, turn] of turns.entries()) {
      const log = path.join(base, `turn-${index}.log`);
      await turn(log);
      // Script ids are the run's own: each log is read alone.
      for (const [file, ends] of lazilyCompiled(readFileSync(log, 'utf8'), outdir))
        byFile.set(file, new Set([...(byFile.get(file) ?? []), ...ends]));
    }
    if (model.requests() < turns.length + 1)
      throw new Error(`the turns sent ${model.requests()} model requests, not ${turns.length + 1}`);
    return { byFile, notes };
  } finally {
    await model.close();
    rmSync(base, { recursive: true, force: true });
  }
}

/**
 * From a V8 log: per script under `outdir`, the end offsets of functions that had a
 * `parse-function` event (a lazy function parsed in full at its first call) and were then compiled.
 */
export function lazilyCompiled(logText, outdir) {
  const scripts = new Map();
  const parsed = new Set();
  const compiled = [];
  for (const line of logText.split('\n')) {
    const fields = line.split(',');
    if (fields[0] === 'script-details') {
      if (fields[2]?.startsWith(outdir + path.sep)) scripts.set(fields[1], fields[2]);
    } else if (fields[0] === 'function') {
      if (fields[1] === 'parse-function') parsed.add(`${fields[2]}:${fields[3]}:${fields[4]}`);
      else if (fields[1] === 'interpreter') compiled.push(fields);
    }
  }
  const byFile = new Map();
  for (const [, , id, start, end] of compiled) {
    const file = scripts.get(id);
    if (!file || !parsed.has(`${id}:${start}:${end}`)) continue;
    if (!byFile.has(file)) byFile.set(file, new Set());
    byFile.get(file).add(Number(end));
  }
  return byFile;
}

function runTurn(launcher, nodeArgs, cwd, env) {
  const child = spawn(process.execPath, [...nodeArgs, launcher, '--trust', '-p', 'hi'], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          new Error(`the turn ended with ${signal ?? `exit code ${code}`}: ${output.trim().slice(-2000)}`),
        );
    });
  });
}

/**
 * The TUI in a pseudo-terminal: at its first frame (the input line) "hi" and Enter; once the answer
 * and the turn's ✓ are on the screen, Ctrl+C, as a person leaves it. Resolves when it exits with 0.
 */
function runTuiTurn(pty, launcher, nodeArgs, cwd, env, model) {
  const asked = model.requests();
  const child = pty.spawn(process.execPath, [...nodeArgs, launcher, '--trust'], {
    name: 'xterm-256color',
    cols: 100,
    rows: 30,
    cwd,
    env: { ...env, TERM: 'xterm-256color' },
  });
  let screen = '';
  let step = 'first frame';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
    child.onData((data) => {
      screen += data;
      if (step === 'first frame' && screen.includes('\u203a')) {
        step = 'answer';
        screen = '';
        child.write('hi\r');
      } else if (
        step === 'answer' &&
        screen.includes(ANSWER) &&
        screen.slice(screen.indexOf(ANSWER)).includes('\u2713')
      ) {
        step = 'exit';
        child.write('\x03');
      }
    });
    child.onExit(({ exitCode, signal }) => {
      clearTimeout(timer);
      if (step === 'exit' && exitCode === 0 && model.requests() > asked) resolve();
      else {
        const seen = stripVTControlCharacters(screen).replace(/\s+/g, ' ').slice(-1000);
        reject(new Error(`the TUI turn ended at its ${step} (exit ${signal || exitCode}): ${seen}`));
      }
    });
  });
}

/** A chat-completions endpoint that streams the same answer to every request. */
async function startModel() {
  let requests = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) return res.writeHead(404).end();
      requests++;
      const chunk = { choices: [{ index: 0, delta: { content: ANSWER }, finish_reason: 'stop' }] };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
