/**
 * Approval modes through the built CLI in print mode: default asks (and print mode refuses) write
 * and patch, accept-edits runs them, plan runs only read-only tools and ends with the plan,
 * bypass lifts every ask but a deny rule and a protected path, and is refused in a folder the
 * person has not trusted. The JSON result reports the mode; a sub-agent inherits it.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFixture, type JsonOutput, parseJsonOutput, type RunResult } from './harness.js';

// run_shell's question is the subject here: a confined command would not be asked at all.
const fx = cliFixture({ env: { GEEKAGENT_SANDBOX: 'off' } });

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

type ModeOutput = JsonOutput & { approval_mode: string; plan?: string };

async function runJson(
  args: string[],
  options: { trusted?: boolean } = {},
): Promise<{
  run: RunResult;
  out: ModeOutput;
}> {
  const run = await fx.run(['-p', 'do it', '--output-format', 'json', ...args], options);
  expect(run.code, run.stderr).toBe(0);
  return { run, out: parseJsonOutput(run) as ModeOutput };
}

const decisions = (out: JsonOutput) => out.tool_calls.map((c) => [c.name, c.decision, c.is_error]);

function pushEdits(): void {
  fx.fake.push(
    { toolCalls: [call('write', { path: 'a.txt', content: 'one\n' })] },
    { toolCalls: [call('patch', { path: 'b.txt', hunks: [{ old: 'old', new: 'new' }] })] },
    { text: 'done' },
  );
}

describe('approval modes in print mode', () => {
  it('default asks write and patch (refused here); accept-edits runs them', async () => {
    await fx.project.write('b.txt', 'old\n');
    pushEdits();
    const asked = await runJson([]);
    expect(asked.out.approval_mode).toBe('default');
    expect(decisions(asked.out)).toEqual([
      ['write', 'refused', true],
      ['patch', 'refused', true],
    ]);
    expect(existsSync(path.join(fx.project.dir, 'a.txt'))).toBe(false);

    pushEdits();
    const accepted = await runJson(['--approval-mode', 'accept-edits']);
    expect(accepted.out.approval_mode).toBe('accept-edits');
    expect(decisions(accepted.out)).toEqual([
      ['write', 'allow', false],
      ['patch', 'allow', false],
    ]);
    expect(await readFile(path.join(fx.project.dir, 'a.txt'), 'utf8')).toBe('one\n');
    expect(await readFile(path.join(fx.project.dir, 'b.txt'), 'utf8')).toBe('new\n');
  });

  it('accept-edits still refuses a deny rule, a protected path and run_shell', async () => {
    await fx.project.tools({ patch: 'deny' });
    fx.fake.push(
      {
        toolCalls: [
          call('patch', { path: 'b.txt', hunks: [{ old: 'x', new: 'y' }] }),
          call('write', { path: '.env', content: 'TOKEN=1\n' }),
          call('run_shell', { command: 'echo hi > shell.txt' }),
        ],
      },
      { text: 'done' },
    );
    const { out } = await runJson(['--approval-mode', 'accept-edits']);
    expect(decisions(out)).toEqual([
      ['patch', 'deny', true],
      ['write', 'refused', true],
      ['run_shell', 'refused', true],
    ]);
    expect(out.tool_calls[1]!.result).toContain('protected path');
    expect(existsSync(path.join(fx.project.dir, '.env'))).toBe(false);
    expect(existsSync(path.join(fx.project.dir, 'shell.txt'))).toBe(false);
  });

  it('plan runs read but refuses write and run_shell, telling the model; it ends with the plan', async () => {
    await fx.project.write('notes.txt', 'the plan starts here\n');
    fx.fake.push(
      {
        toolCalls: [
          call('read', { path: 'notes.txt' }),
          call('write', { path: 'a.txt', content: 'x' }),
          call('run_shell', { command: 'echo hi > shell.txt' }),
        ],
      },
      { toolCalls: [call('exit_plan_mode', { plan: '1. edit a.txt\n2. run the tests' })] },
      { text: 'Plan: 1. edit a.txt 2. run the tests' },
    );
    // --allow write: plan mode refuses what a rule allows too.
    const { out } = await runJson(['--approval-mode', 'plan', '--allow', 'write', '--allow', 'run_shell']);
    expect(out.approval_mode).toBe('plan');
    expect(decisions(out)).toEqual([
      ['read', 'allow', false],
      ['write', 'refused', true],
      ['run_shell', 'refused', true],
      ['exit_plan_mode', 'allow', false],
    ]);
    expect(out.tool_calls[0]!.result).toContain('the plan starts here');
    expect(out.tool_calls[1]!.result).toMatch(/^plan mode: write was not run/);
    expect(out.tool_calls[1]!.result).toContain('exit_plan_mode');
    // Nobody can be asked in print mode: plan mode stays on and the plan is the answer.
    expect(out.tool_calls[3]!.result).toContain('kept plan mode on');
    expect(out.plan).toBe('1. edit a.txt\n2. run the tests');
    expect(out.result).toBe('Plan: 1. edit a.txt 2. run the tests');
    expect(existsSync(path.join(fx.project.dir, 'a.txt'))).toBe(false);
    expect(existsSync(path.join(fx.project.dir, 'shell.txt'))).toBe(false);
    // The model is told it is planning in the turn's own context.
    expect(JSON.stringify(fx.fake.requests[0]!.body.messages)).toContain('Plan mode is on');
  });

  it('bypass runs an asked tool but not a deny rule or a protected path', async () => {
    await fx.project.tools({ patch: 'deny' });
    fx.fake.push(
      {
        toolCalls: [
          call('run_shell', { command: 'echo hi > shell.txt' }),
          call('write', { path: 'a.txt', content: 'one\n' }),
          call('patch', { path: 'a.txt', hunks: [{ old: 'one', new: 'two' }] }),
          call('write', { path: '.geekagent/mcp.json', content: '{}' }),
        ],
      },
      { text: 'done' },
    );
    const { out } = await runJson(['--approval-mode', 'bypass']);
    expect(out.approval_mode).toBe('bypass');
    expect(decisions(out)).toEqual([
      ['run_shell', 'allow', false],
      ['write', 'allow', false],
      ['patch', 'deny', true],
      ['write', 'refused', true],
    ]);
    expect(out.tool_calls[3]!.result).toContain('protected path');
    expect(existsSync(path.join(fx.project.dir, 'shell.txt'))).toBe(true);
    expect(existsSync(path.join(fx.project.dir, '.geekagent', 'mcp.json'))).toBe(false);
  });

  it('bypass is refused in a folder the person has not trusted: the run says so and asks as default', async () => {
    fx.fake.push({ toolCalls: [call('write', { path: 'a.txt', content: 'x' })] }, { text: 'done' });
    const { run, out } = await runJson(['--approval-mode', 'bypass'], { trusted: false });
    expect(run.stderr).toContain('approval mode bypass refused: this folder is not trusted');
    expect(run.stderr).toContain('running in default mode');
    expect(out.approval_mode).toBe('default');
    expect(decisions(out)).toEqual([['write', 'refused', true]]);
    expect(existsSync(path.join(fx.project.dir, 'a.txt'))).toBe(false);
  });

  it("the user's approvalMode is the default; a project's is ignored and bypass never comes from it", async () => {
    const userDir = path.join(fx.project.home, '.geekagent');
    await fx.project.write(
      '.geekagent/GeekAgent.json',
      JSON.stringify({ root: '..', approvalMode: 'bypass' }),
    );
    fx.fake.push({ toolCalls: [call('run_shell', { command: 'echo hi > shell.txt' })] }, { text: 'done' });
    const fromProject = await runJson([]);
    expect(fromProject.out.approval_mode).toBe('default');
    expect(fromProject.run.stderr).toContain('"approvalMode" in');
    expect(fromProject.run.stderr).toContain('is ignored');
    expect(decisions(fromProject.out)).toEqual([['run_shell', 'refused', true]]);

    await fx.project.write('b.txt', 'old\n');
    await writeFile(path.join(userDir, 'GeekAgent.json'), JSON.stringify({ approvalMode: 'accept-edits' }));
    pushEdits();
    const fromUser = await runJson([]);
    expect(fromUser.out.approval_mode).toBe('accept-edits');
    expect(decisions(fromUser.out)).toEqual([
      ['write', 'allow', false],
      ['patch', 'allow', false],
    ]);
    // The flag wins over the user's default.
    fx.fake.push({ toolCalls: [call('write', { path: 'c.txt', content: 'x' })] }, { text: 'done' });
    const flagged = await runJson(['--approval-mode', 'plan']);
    expect(flagged.out.approval_mode).toBe('plan');
    expect(decisions(flagged.out)).toEqual([['write', 'refused', true]]);
  });

  it('a sub-agent inherits the mode: plan refuses its write, accept-edits runs it', async () => {
    await fx.project.write(
      '.geekagent/agents/writer.md',
      '---\nname: writer\ndescription: writes files\ntools: [write, read]\n---\nWrite what you are told.\n',
    );
    const child = { toolCalls: [call('write', { path: 'child.txt', content: 'from the child\n' })] };
    const parent = () =>
      fx.fake.push(
        { toolCalls: [call('delegate_task', { task: 'write child.txt', agent: 'writer' })] },
        { text: 'parent done' },
      );
    type Agents = {
      agents: Array<{ tool_calls: Array<{ name: string; decision: string; is_error: boolean }> }>;
    };

    parent();
    fx.fake.pushFor('writer', child, { text: 'child done' });
    const planned = await runJson(['--approval-mode', 'plan']);
    const plannedChild = (planned.out as unknown as Agents).agents[0]!.tool_calls;
    expect(plannedChild.map((c) => [c.name, c.decision, c.is_error])).toEqual([['write', 'refused', true]]);
    // Refused by plan mode (print mode's "needs approval" would refuse it in default mode too).
    const childResults = fx.fake.requests.flatMap((r) =>
      r.body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content)),
    );
    expect(childResults.some((text) => text.startsWith('plan mode: write was not run'))).toBe(true);
    expect(existsSync(path.join(fx.project.dir, 'child.txt'))).toBe(false);

    parent();
    fx.fake.pushFor('writer', child, { text: 'child done' });
    const accepted = await runJson(['--approval-mode', 'accept-edits']);
    const acceptedChild = (accepted.out as unknown as Agents).agents[0]!.tool_calls;
    expect(acceptedChild.map((c) => [c.name, c.decision, c.is_error])).toEqual([['write', 'allow', false]]);
    expect(await readFile(path.join(fx.project.dir, 'child.txt'), 'utf8')).toBe('from the child\n');
  });

  it('/mode shows and sets the mode in print mode; an unknown mode is an error', async () => {
    const shown = await fx.run(['-p', '/mode', '--approval-mode', 'plan']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('● plan');
    expect(shown.stdout).toContain('○ accept-edits');
    const bad = await fx.run(['-p', '/mode sideways']);
    expect(bad.stderr).toContain('unknown approval mode "sideways"');
    const flag = await fx.run(['-p', 'x', '--approval-mode', 'sideways']);
    expect(flag.code).not.toBe(0);
    expect(flag.stderr).toContain('--approval-mode');
  });
});
