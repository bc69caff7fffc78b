/**
 * The MCP tasks extension (`io.modelcontextprotocol/tasks`) through the built CLI, against the real
 * fixture server test/fixtures/mcp2026/task.mjs (a subprocess): a call the server turns into a task
 * is polled with `tasks/get` to its result, each new status reaching the person as the call's
 * progress; Ctrl+C (SIGINT) during the task sends `tasks/cancel`; a task's input request is
 * answered by the same handlers as any server request (print mode declines); a failed task says why.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';
import { settles, waitFor } from '../helpers/wait.js';
import { CLI, cliArgs, cliFixture, testEnv } from './harness.js';

const TASK = path.join(REPO_ROOT, 'test', 'fixtures', 'mcp2026', 'task.mjs');

const fx = cliFixture();

async function lines(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean);
}

/** The task server as `t`, its methods logged to methods.log and its cancels to cancels.log. */
async function taskServer(): Promise<{ methods: string; cancels: string }> {
  const methods = path.join(fx.project.dir, 'methods.log');
  const cancels = path.join(fx.project.dir, 'cancels.log');
  await fx.project.mcpServers({
    t: { command: 'node', args: [TASK], env: { MCP_FIXTURE_LOG: methods, TASK_CANCEL_LOG: cancels } },
  });
  return { methods, cancels };
}

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

describe('MCP tasks', () => {
  it('a call that becomes a task is polled to its result, its progress shown in print mode', async () => {
    const { methods } = await taskServer();
    fx.fake.push({ toolCalls: [call('mcp_t_slow', { steps: 2 })] }, (request) => ({
      text: `got ${request.body.messages.filter((m) => m.role === 'tool').map((m) => m.content)}`,
    }));
    const run = await fx.run(['-p', 'run the job', '--output-format', 'stream-json', '--allow', 'mcp_t_*']);
    expect(run.code, run.stderr).toBe(0);
    const out = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const progress = out.filter((line) => line.type === 'tool_progress' && line.tool_name === 'mcp_t_slow');
    expect(progress.map((line) => line.message)).toEqual([
      'task working: queued',
      'task working: step 1/2',
      'task working: step 2/2',
      'task completed: done',
    ]);
    expect(out.at(-1)).toMatchObject({ type: 'result', result: 'got slow done after 2 steps' });
    const log = await lines(methods);
    expect(log).toContain('task task-1-slow');
    expect(log.filter((method) => method === 'tasks/get')).toHaveLength(3);
    expect(log).not.toContain('tasks/cancel');
  });

  it('Ctrl+C during a task sends tasks/cancel before the run ends', async () => {
    const { methods, cancels } = await taskServer();
    // Never done: each poll is one step of a billion.
    fx.fake.push({ toolCalls: [call('mcp_t_slow', { steps: 1_000_000_000 })] }, { kind: 'hang' });
    const agent = spawn(process.execPath, [CLI, ...cliArgs(['-p', 'run it', '--allow', 'mcp_t_*'], true)], {
      cwd: fx.project.dir,
      env: testEnv({ project: fx.project, modelUrl: fx.fake.url }),
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => agent.once('exit', (code) => resolve(code)));
    try {
      await waitFor(async () => (await lines(methods)).filter((m) => m === 'tasks/get').length >= 2, {
        what: 'the task to be polled',
        timeoutMs: 30_000,
      });
      agent.kill('SIGINT');
      expect(await settles(exited, 'the agent to exit after SIGINT')).toBe(130);
      expect(await lines(cancels)).toEqual(['cancel task-1-slow']);
    } finally {
      agent.kill('SIGKILL');
    }
  });

  it("a task's input request reaches the person's handlers and their answer goes back with tasks/update", async () => {
    const { methods } = await taskServer();
    fx.fake.push({ toolCalls: [call('mcp_t_approve', {})] }, (request) => ({
      text: `got ${request.body.messages.filter((m) => m.role === 'tool').map((m) => m.content)}`,
    }));
    // Accepted with the form's defaults (it has none): an accept without `approved` is "rejected".
    const run = await fx.run([
      '-p',
      'deploy',
      '--output-format',
      'json',
      '--allow',
      'mcp_t_*',
      '--accept-elicitation-defaults',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ result: 'got rejected' });
    expect(await lines(methods)).toEqual(expect.arrayContaining(['tasks/update']));
  });

  it("a task's input request is answered like any server request (print mode declines); a failed task says why", async () => {
    const { cancels } = await taskServer();
    const approve = await fx.run(['mcp', 'call', 't', 'approve', '{}']);
    expect(approve.code, approve.stderr).toBe(0);
    expect(approve.stdout.trim()).toBe('declined');
    const fail = await fx.run(['mcp', 'call', 't', 'fail', '{}']);
    expect(fail.code).toBe(1);
    expect(fail.stderr).toContain(
      'MCP server t returned an error for tools/call "fail": the task failed: the job broke (-32603)',
    );
    // Both ended at the server on their own: nothing to cancel.
    expect(await lines(cancels)).toEqual([]);
  });
});
