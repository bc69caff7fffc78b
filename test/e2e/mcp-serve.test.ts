/**
 * `geekagent mcp serve`: the built CLI as an MCP server, driven by the official SDK client over
 * stdio (as Claude Code, an IDE or another agent would) and by GeekAgent's own client. Pins the
 * listing and its annotations, calls under the permission layer (allow, ask, deny, --allow,
 * elicitation accepted and declined), the root sandbox and protected paths, folder trust, and a
 * clean exit with no process left when the client closes stdin.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { settles } from '../helpers/wait.js';
import {
  CLI,
  createProject,
  type Project,
  parseJsonOutput,
  runCli,
  testEnv,
  toolMessages,
} from './harness.js';

interface Served {
  client: Client;
  transport: StdioClientTransport;
  /** What the server wrote to stderr so far. */
  stderr: () => string;
  /** Protocol errors the client saw (anything on stdout that is not a JSON-RPC message). */
  errors: Error[];
  /** Messages of the elicitation requests the server sent. */
  asked: string[];
}

let project: Project;
const open: Served[] = [];

beforeEach(async () => {
  project = await createProject();
  await project.write('notes.txt', 'alpha beta\ngamma\n');
  await writeFile(path.join(project.dir, '..', 'outside.txt'), 'secret outside the root\n');
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((served) => served.client.close()));
  await project.cleanup();
});

async function serve(
  args: string[] = [],
  options: { answer?: 'accept' | 'decline'; after?: string[]; cwd?: string } = {},
): Promise<Served> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(testEnv({ project }))) if (value !== undefined) env[key] = value;
  // run_shell is these tests' asked (and long-running) tool: unconfined, as before the sandbox;
  // sandbox-mcp.test.ts pins `mcp serve` confining it.
  env.GEEKAGENT_SANDBOX = 'off';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, ...args, 'mcp', 'serve', ...(options.after ?? [])],
    cwd: options.cwd ?? project.dir,
    env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const answer = options.answer;
  const client = new Client(
    { name: 'e2e', version: '1.0.0' },
    { capabilities: answer ? { elicitation: {} } : {} },
  );
  const asked: string[] = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return answer === 'accept' ? { action: 'accept', content: {} } : { action: 'decline' };
    });
  }
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  const served = { client, transport, stderr: () => stderr, errors, asked };
  open.push(served);
  return served;
}

async function call(served: Served, name: string, args: Record<string, unknown>) {
  const result = (await served.client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
  return { text, isError: result.isError === true };
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Running (a killed child not yet reaped by init is a zombie: dead, though signal 0 reaches it). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = readFileSyncSafe(`/proc/${pid}/stat`);
  return !/^\d+ \(.*\) Z/.test(stat);
}

/** Starts `exec sleep 300` through run_shell and returns the shell's pid once it runs. */
async function startSleep(served: Served): Promise<{ shellPid: number; running: Promise<unknown> }> {
  const pidFile = path.join(project.dir, 'shell.pid');
  rmSync(pidFile, { force: true });
  const running = served.client
    .callTool({ name: 'run_shell', arguments: { command: 'echo $$ > shell.pid; exec sleep 300' } })
    .catch((error: unknown) => error);
  await until(() => /\d+\n/.test(readFileSyncSafe(pidFile)), 'the shell');
  const shellPid = Number(readFileSyncSafe(pidFile).trim());
  expect(alive(shellPid)).toBe(true);
  return { shellPid, running };
}

describe('geekagent mcp serve (SDK client)', () => {
  it('lists the built-in tools with truthful annotations and serves a read over stdio', async () => {
    const served = await serve();
    const { tools } = await served.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'get_current_time',
      'run_shell',
      'ls',
      'read',
      'glob',
      'search',
      'fetch',
      'write',
      'patch',
      'memory_write',
      'memory_search',
      'memory_delete',
      'rag_add',
      'rag_search',
    ]);
    const hints = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
    for (const name of ['ls', 'read', 'glob', 'search', 'memory_search', 'rag_search'])
      expect(hints[name], name).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(hints.fetch).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    expect(hints.run_shell).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
    expect(hints.write).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(hints.patch).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    const read = tools.find((tool) => tool.name === 'read');
    expect(read?.inputSchema).toMatchObject({ type: 'object', required: ['path'] });

    const result = await call(served, 'read', { path: 'notes.txt' });
    expect(result).toEqual({ text: expect.stringContaining('alpha beta\ngamma'), isError: false });
    const search = await call(served, 'search', { pattern: 'gamma' });
    expect(search.text).toContain('notes.txt:2');
    // Nothing but protocol bytes went to stdout; diagnostics are on stderr.
    expect(served.errors).toEqual([]);
    expect(served.stderr()).toContain(
      `geekagent mcp serve: serving 14 tools for ${project.dir} (root ${project.dir}) on stdio`,
    );
  });

  it('refuses an ask tool with the --allow hint when the client cannot be asked; --allow lets it run', async () => {
    const served = await serve();
    const refused = await call(served, 'run_shell', { command: 'echo ran > ran.txt' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe(
      'refused: run_shell needs approval and this client cannot be asked (no elicitation support); start geekagent mcp serve with --allow run_shell to allow it',
    );
    expect(existsSync(path.join(project.dir, 'ran.txt'))).toBe(false);

    // The flag after `serve` works the same (commander hands it to the program either way).
    const allowed = await serve([], { after: ['--allow', 'run_shell'] });
    const ran = await call(allowed, 'run_shell', { command: 'echo ran > ran.txt && echo done' });
    expect(ran).toEqual({ text: 'done', isError: false });
    expect(await readFile(path.join(project.dir, 'ran.txt'), 'utf8')).toBe('ran\n');
  });

  it('asks through elicitation when the client supports it: accepted runs, declined refuses', async () => {
    const yes = await serve([], { answer: 'accept' });
    const written = await call(yes, 'write', { path: 'out.txt', content: 'from a client\n' });
    expect(written.isError, written.text).toBe(false);
    expect(await readFile(path.join(project.dir, 'out.txt'), 'utf8')).toBe('from a client\n');
    expect(yes.asked).toHaveLength(1);
    expect(yes.asked[0]).toContain('out.txt');

    const no = await serve([], { answer: 'decline' });
    const declined = await call(no, 'write', { path: 'other.txt', content: 'x' });
    expect(declined).toEqual({ text: 'refused: the call of write was declined when asked', isError: true });
    expect(no.asked).toHaveLength(1);
    expect(existsSync(path.join(project.dir, 'other.txt'))).toBe(false);
    // An allow tool is not asked.
    expect((await call(no, 'read', { path: 'notes.txt' })).isError).toBe(false);
    expect(no.asked).toHaveLength(1);
  });

  it('runs concurrent edits of one file one after another, so none is lost', async () => {
    const lines = Array.from({ length: 8 }, (_, i) => `line ${i}`);
    await project.write('many.txt', `${lines.join('\n')}\n`);
    const served = await serve(['--allow', 'patch']);
    const results = await Promise.all(
      lines.map((line) =>
        call(served, 'patch', { path: 'many.txt', hunks: [{ old: line, new: `${line} edited` }] }),
      ),
    );
    expect(results.filter((result) => result.isError)).toEqual([]);
    expect(await readFile(path.join(project.dir, 'many.txt'), 'utf8')).toBe(
      `${lines.map((line) => `${line} edited`).join('\n')}\n`,
    );
  });

  it('leaves denied tools out of the listing and refuses them when called anyway', async () => {
    await project.write('.geekagent/GeekAgent.json', JSON.stringify({ tools: { glob: 'deny' } }));
    const served = await serve(['--deny', 'fetch', '--allow', 'glob']);
    const names = (await served.client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('glob');
    expect(names).not.toContain('fetch');
    expect(names).toContain('read');
    // A deny in the project file beats --allow, as in the agent.
    expect(await call(served, 'glob', { pattern: '*.txt' })).toEqual({
      text: 'permission denied: tool glob is not allowed',
      isError: true,
    });
    expect(await call(served, 'nope', {})).toEqual({
      text: 'unknown tool: nope (see tools/list)',
      isError: true,
    });
  });

  it('refuses paths outside the root (--root) and protected paths, as the agent does', async () => {
    const served = await serve(['--allow', 'write'], {
      cwd: path.dirname(project.dir),
      after: ['--root', project.dir],
    });
    expect((await call(served, 'read', { path: 'notes.txt' })).isError).toBe(false);
    const outside = await call(served, 'read', { path: '../outside.txt' });
    expect(outside.isError).toBe(true);
    expect(outside.text).toMatch(/^path outside root: /);
    expect(outside.text).not.toContain('secret');
    const absolute = await call(served, 'read', { path: path.join(project.dir, '..', 'outside.txt') });
    expect(absolute.isError).toBe(true);
    expect(absolute.text).toMatch(/^path outside root: /);
    const escaped = await call(served, 'write', { path: '../escape.txt', content: 'x' });
    expect(escaped.isError).toBe(true);
    expect(existsSync(path.join(project.dir, '..', 'escape.txt'))).toBe(false);
    // .env is protected: asked even under --allow, and nobody can be asked here.
    const env = await call(served, 'write', { path: '.env', content: 'OPENAI_API_KEY=x\n' });
    expect(env.isError).toBe(true);
    expect(env.text).toContain('protected path (.env)');
    expect(env.text).toContain('--allow-protected .env');
    expect(existsSync(path.join(project.dir, '.env'))).toBe(false);
  });

  it("does not apply an untrusted folder's allow rules (its deny rules still hold); --trust does", async () => {
    await project.write(
      '.geekagent/GeekAgent.json',
      // `root` is relative to .geekagent/: '../..' is the folder above the project.
      JSON.stringify({ root: '../..', tools: { run_shell: 'allow', ls: 'deny' } }),
    );
    const untrusted = await serve();
    // Its root outside the folder is ignored too: the root stays the folder itself.
    const outsideFile = path.join(project.dir, '..', 'outside.txt');
    expect((await call(untrusted, 'read', { path: outsideFile })).text).toMatch(/^path outside root: /);
    const refused = await call(untrusted, 'run_shell', { command: 'echo hi' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('--allow run_shell');
    expect((await untrusted.client.listTools()).tools.map((tool) => tool.name)).not.toContain('ls');
    expect(untrusted.stderr()).toContain(
      'folder not trusted: ignoring 1 allow rule, root outside the folder',
    );

    const trusted = await serve(['--trust']);
    expect(await call(trusted, 'run_shell', { command: 'echo hi' })).toEqual({ text: 'hi', isError: false });
    expect(await call(trusted, 'read', { path: outsideFile })).toMatchObject({
      text: expect.stringContaining('secret outside the root'),
      isError: false,
    });
  });

  it('exits by itself when the client closes stdin, killing a running shell command', async () => {
    const served = await serve(['--allow', 'run_shell']);
    const { shellPid, running } = await startSleep(served);
    const serverPid = served.transport.pid;
    expect(serverPid).toBeTypeOf('number');

    // Close stdin ourselves and watch the exit: no one sends a signal (the SDK's close() would
    // send SIGTERM after 2 s, so a clock there fails on a busy machine), and exit code 0 with no
    // signal means the server ended on its own.
    const child = (served.transport as unknown as { _process: ChildProcess })._process;
    const exit = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once('exit', (code, signal) => resolve([code, signal])),
    );
    child.stdin!.end();
    expect(await settles(exit, 'the server to exit after its stdin closed')).toEqual([0, null]);
    await served.client.close();
    await running;
    await until(() => !alive(serverPid!), 'the server to be gone');
    await until(() => !alive(shellPid), 'the shell command to be killed');
    expect(served.errors).toEqual([]);
  });

  it('a cancelled call kills its shell command and the server goes on; SIGTERM ends it with no child left', async () => {
    const served = await serve(['--allow', 'run_shell']);
    const cancel = new AbortController();
    const pidFile = path.join(project.dir, 'shell.pid');
    const cancelled = served.client
      .callTool(
        { name: 'run_shell', arguments: { command: 'echo $$ > shell.pid; exec sleep 300' } },
        undefined,
        {
          signal: cancel.signal,
        },
      )
      .catch((error: unknown) => error);
    await until(() => /\d+\n/.test(readFileSyncSafe(pidFile)), 'the shell');
    const first = Number(readFileSyncSafe(pidFile).trim());
    cancel.abort();
    await cancelled;
    await until(() => !alive(first), 'the cancelled shell command to be killed');
    expect((await call(served, 'read', { path: 'notes.txt' })).isError).toBe(false);

    const { shellPid } = await startSleep(served);
    const serverPid = served.transport.pid!;
    process.kill(serverPid, 'SIGTERM');
    await until(() => !alive(serverPid), 'the server to end on SIGTERM');
    await until(() => !alive(shellPid), 'the shell command to be killed');
  });
});

function readFileSyncSafe(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

describe('geekagent mcp serve (our own client)', () => {
  let fake: FakeModel;
  beforeEach(async () => {
    fake = await startFakeModel();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('mcp add self -- geekagent mcp serve: listed connected with its tools, callable by the model', async () => {
    const add = await runCli(['mcp', 'add', 'self', '--', process.execPath, CLI, 'mcp', 'serve'], {
      project,
    });
    expect(add.code, add.stderr).toBe(0);
    const list = await runCli(['mcp', 'list', '--json'], { project });
    expect(list.code, list.stderr).toBe(0);
    const [self] = JSON.parse(list.stdout) as Array<{
      name: string;
      status: string;
      tools: Array<{ name: string }>;
    }>;
    expect(self?.name).toBe('self');
    expect(self?.status).toBe('connected');
    expect(self?.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining([
        'mcp_self_read',
        'mcp_self_run_shell',
        'mcp_self_write',
        'mcp_self_rag_search',
      ]),
    );

    fake.push(
      { toolCalls: [{ name: 'mcp_self_read', arguments: JSON.stringify({ path: 'notes.txt' }) }] },
      (request) => ({
        text: `read: ${toolMessages(request.body).join(' | ')}`,
      }),
    );
    const run = await runCli(
      ['-p', 'read notes.txt', '--output-format', 'json', '--allow', 'mcp_self_read'],
      {
        project,
        modelUrl: fake.url,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out.tool_calls.map((c) => [c.name, c.decision, c.is_error])).toEqual([
      ['mcp_self_read', 'allow', false],
    ]);
    expect(out.tool_calls[0]?.result).toContain('alpha beta');
  });
});
