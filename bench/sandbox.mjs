// The command sandbox (issue 27). Z1: what confinement costs one command — `true` run 100 times
// through src/sandbox (wrap + bubblewrap) against `/bin/sh -c true`, medians. Z2: the questions of
// a scripted 20-command print-mode session, with the sandbox (workspace-write) and without
// (`--sandbox off`): print mode refuses what it would have to ask, so each refusal is a question.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { CLI, median, now, ROOT, tempDir } from './lib.mjs';

const COMMANDS = 100;

function runShell(line, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', line], { cwd, stdio: 'ignore', detached: true });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`exit ${code}: ${line.slice(0, 80)}`)),
    );
  });
}

/**
 * The library as the CLI runs it: the shipped bundle dist/cli/lib/sandbox.cjs (with its build
 * patches, e.g. the in-process `which`), loaded the way src/cli/launch/code-cache.ts loads it.
 */
function shippedSandboxLibrary() {
  const file = path.join(ROOT, 'dist', 'cli', 'lib', 'sandbox.cjs');
  const bundle = vm.runInThisContext(readFileSync(file, 'utf8'), { filename: file });
  const module = { exports: {} };
  bundle(module.exports, createRequire(file), module, file, path.dirname(file));
  return module.exports['@anthropic-ai/sandbox-runtime'].SandboxManager;
}

export async function benchSandboxCost() {
  const { createCommandSandbox, DEFAULT_SANDBOX_POLICY } = await import(
    path.join(ROOT, 'dist', 'sandbox', 'index.js')
  );
  const { backendOver } = await import(path.join(ROOT, 'dist', 'sandbox', 'srt-backend.js'));
  const manager = shippedSandboxLibrary();
  const base = await tempDir('sandbox');
  const root = path.join(base, 'project');
  const home = path.join(base, 'home');
  await mkdir(root, { recursive: true });
  await mkdir(home, { recursive: true });
  const sandbox = createCommandSandbox({
    policy: DEFAULT_SANDBOX_POLICY,
    root,
    home,
    userStateDir: path.join(home, '.geekagent'),
    stateDirs: [path.join(root, '.geekagent')],
    env: process.env,
    loadBackend: async () => backendOver(manager),
  });
  const status = await sandbox.ready();
  if (status.kind !== 'confined')
    throw new Error(`the sandbox cannot run here: ${status.reason ?? status.kind}`);
  const plain = [];
  const confined = [];
  const wraps = [];
  try {
    for (let i = 0; i < COMMANDS; i++) {
      let t0 = now();
      await runShell('true', root);
      plain.push(now() - t0);
      t0 = now();
      const line = await sandbox.wrap('true', { id: `bench-${i}`, cwd: root });
      wraps.push(now() - t0);
      await runShell(line, root);
      sandbox.release(`bench-${i}`);
      confined.push(now() - t0);
    }
  } finally {
    await sandbox.dispose();
  }
  return { plain: median(plain), confined: median(confined), wrap: median(wraps) };
}

function sse(reply) {
  const chunks = [];
  if (reply.text)
    chunks.push({ choices: [{ index: 0, delta: { content: reply.text }, finish_reason: null }] });
  for (const [index, toolCall] of (reply.toolCalls ?? []).entries()) {
    chunks.push({
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              {
                index,
                id: `call_${index}_${Math.random().toString(36).slice(2)}`,
                type: 'function',
                function: toolCall,
              },
            ],
          },
          finish_reason: null,
        },
      ],
    });
  }
  chunks.push({ choices: [{ index: 0, delta: {}, finish_reason: reply.toolCalls ? 'tool_calls' : 'stop' }] });
  return `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`;
}

/** Twenty everyday commands of a coding session, one per model round. */
const SESSION = [
  'ls -la',
  'cat README.md',
  'mkdir -p build',
  'echo "int main(){}" > build/a.c',
  'wc -l README.md',
  'grep -n tokenizer README.md',
  'cp README.md build/',
  'ls build',
  'git --version || true',
  'date',
  'mktemp',
  'sort README.md | head -3',
  'touch build/stamp',
  'rm build/stamp',
  'pwd',
  'uname -a',
  'head -c 20 README.md',
  'find . -maxdepth 2 -type f | sort',
  'echo done > build/log',
  'cat build/log',
];

async function session(flags) {
  const base = await tempDir('sandbox-session');
  const dir = path.join(base, 'project');
  const home = path.join(base, 'home');
  await mkdir(dir, { recursive: true });
  await mkdir(home, { recursive: true });
  await writeFile(path.join(dir, 'README.md'), '# tokenizer\n\nBuild with make.\n');
  let round = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const command = SESSION[round++];
      const reply = command
        ? { toolCalls: [{ name: 'run_shell', arguments: JSON.stringify({ command }) }] }
        : { text: 'done' };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sse(reply));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const stdout = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, '-p', 'work', '--output-format', 'json', ...flags], {
        cwd: dir,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          GEEKAGENT_HOME: path.join(home, '.geekagent'),
          OPENAI_API_KEY: 'bench',
          OPENAI_BASE_URL: `http://127.0.0.1:${server.address().port}/v1`,
          OPENAI_MODEL: 'bench',
          GEEKAGENT_MAX_RETRIES: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (err += chunk));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err.slice(-300)}`)),
      );
    });
    const calls = JSON.parse(stdout).tool_calls;
    return {
      calls: calls.length,
      asked: calls.filter((c) => c.decision === 'refused').length,
      failed: calls.filter((c) => c.decision !== 'refused' && c.is_error).length,
    };
  } finally {
    server.close();
  }
}

export async function benchSandboxQuestions() {
  return { confined: await session([]), off: await session(['--sandbox', 'off']) };
}
