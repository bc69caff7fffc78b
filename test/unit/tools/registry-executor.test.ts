/** The registry (register/unregister/visible/provider form) and execTool's failure-to-result rules. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PolicyStore } from '../../../src/permissions/policy.js';
import type { ApprovalAnswer, Approver } from '../../../src/permissions/types.js';
import { ToolExecutor } from '../../../src/tools/executor.js';
import { DuplicateToolError, ToolRegistry } from '../../../src/tools/registry.js';
import { type Tool, ToolError } from '../../../src/tools/types.js';
import { RootSandbox } from '../../../src/workspace/root-sandbox.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'geekagent-exec-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const tool = (name: string, run: Tool['run'] = async () => 'ok'): Tool => ({
  name,
  description: `the ${name} tool`,
  parameters: { type: 'object', properties: {} },
  run,
});

describe('ToolRegistry', () => {
  it('registers, refuses duplicates, unregisters and notifies', () => {
    const registry = new ToolRegistry();
    let changes = 0;
    registry.onChange(() => changes++);
    registry.register(tool('a'));
    expect(() => registry.register(tool('a'))).toThrow(DuplicateToolError);
    registry.register(tool('b'));
    expect(registry.unregister('a')).toBe(true);
    expect(registry.unregister('a')).toBe(false);
    expect(registry.list().map((t) => t.name)).toEqual(['b']);
    expect(changes).toBe(3);
  });

  it('filters visible tools and converts them for the provider', () => {
    const registry = new ToolRegistry();
    registry.register(tool('read'));
    registry.register(tool('mcp_demo_dice'));
    registry.setVisibleFilter((t) => t.name.startsWith('mcp_'));
    expect(registry.toProviderTools()).toEqual([
      {
        name: 'mcp_demo_dice',
        description: 'the mcp_demo_dice tool',
        parameters: { type: 'object', properties: {} },
      },
    ]);
    registry.setVisibleFilter(null);
    expect(registry.visible()).toHaveLength(2);
  });
});

class Answers implements Approver {
  asked = 0;
  constructor(private readonly answer: ApprovalAnswer) {}
  async ask(): Promise<ApprovalAnswer> {
    this.asked++;
    return this.answer;
  }
  refusalMessage(name: string): string {
    return `declined ${name}`;
  }
}

function executor(
  tools: Tool[],
  rules: Record<string, 'allow' | 'ask' | 'deny'>,
  approver: Approver = new Answers('yes'),
) {
  const registry = new ToolRegistry();
  for (const t of tools) registry.register(t);
  const saved: string[] = [];
  const policies = new PolicyStore({
    layers: [{ label: 'project', rules }],
    persistAllow: async (name) => {
      saved.push(name);
    },
  });
  const exec = new ToolExecutor({
    registry,
    policies,
    approver,
    redact: (text) => text.replaceAll('hunter2', '[REDACTED:PASSWORD]'),
    context: { sandbox: new RootSandbox(root), undo: { record: async () => undefined }, env: {} },
  });
  return { exec, saved, policies, registry };
}

const signal = () => new AbortController().signal;
const req = (name: string, args = '{}') => ({ id: '1', name, arguments: args });

describe('ToolExecutor', () => {
  it('turns an unknown tool into an error result', async () => {
    const { exec } = executor([], {});
    const out = await exec.execute(req('nope'), signal());
    expect(out).toMatchObject({ isError: true, decision: 'deny' });
    expect(out.output).toContain('unknown tool: nope');
  });

  it('refuses a tool hidden from the model even when the model names it and the policy allows it', async () => {
    let ran = false;
    const { exec, registry } = executor(
      [
        tool('run_shell', async () => {
          ran = true;
          return 'ran';
        }),
        tool('read'),
      ],
      { run_shell: 'allow', read: 'allow' },
    );
    registry.setVisibleFilter((t) => t.name === 'read');
    const out = await exec.execute(req('run_shell'), signal());
    expect(out).toMatchObject({ isError: true, decision: 'deny' });
    expect(out.output).toBe(
      'tool run_shell is not available in this conversation now. Call one of the tools listed in this request.',
    );
    expect(ran).toBe(false);
    expect((await exec.execute(req('read'), signal())).output).toBe('ok');
  });

  it('denies tools without a rule (unknown tools are deny) and never runs them', async () => {
    let ran = false;
    const { exec } = executor(
      [
        tool('x', async () => {
          ran = true;
          return 'ran';
        }),
      ],
      {},
    );
    const out = await exec.execute(req('x'), signal());
    expect(out.output).toBe('permission denied: tool x is not allowed');
    expect(ran).toBe(false);
  });

  it('rejects non-object and malformed arguments', async () => {
    const { exec } = executor([tool('x')], { x: 'allow' });
    expect((await exec.execute(req('x', '[1]'), signal())).output).toContain(
      'expected a JSON object, got an array',
    );
    expect((await exec.execute(req('x', '{oops'), signal())).output).toMatch(
      /^invalid JSON arguments for tool x/,
    );
    expect((await exec.execute(req('x', ''), signal())).isError).toBe(false);
  });

  it('asks for ask tools; no → the refusal message, always → saved as allow', async () => {
    const no = executor([tool('x')], { x: 'ask' }, new Answers('no'));
    expect(await no.exec.execute(req('x'), signal())).toMatchObject({
      decision: 'refused',
      output: 'declined x',
    });
    const always = new Answers('always');
    const yes = executor([tool('x')], { x: 'ask' }, always);
    expect(await yes.exec.execute(req('x'), signal())).toMatchObject({ decision: 'approved', output: 'ok' });
    expect(yes.saved).toEqual(['x']);
    expect(await yes.exec.execute(req('x'), signal())).toMatchObject({ decision: 'allow' });
    expect(always.asked).toBe(1);
  });

  it('turns exceptions into error results and redacts what the model sees', async () => {
    const { exec } = executor(
      [
        tool('boom', async () => {
          throw new Error('password hunter2 rejected');
        }),
        tool('expected', async () => {
          throw new ToolError('expected: bad input');
        }),
      ],
      { boom: 'allow', expected: 'allow' },
    );
    expect((await exec.execute(req('boom'), signal())).output).toBe(
      'error: password [REDACTED:PASSWORD] rejected',
    );
    expect((await exec.execute(req('expected'), signal())).output).toBe('expected: bad input');
  });

  it('reports a cancel when the signal aborts, even if the tool returns normally', async () => {
    const controller = new AbortController();
    const { exec } = executor(
      [
        tool('partial', async () => {
          controller.abort();
          return 'half the results';
        }),
      ],
      { partial: 'allow' },
    );
    expect(await exec.execute(req('partial'), controller.signal)).toMatchObject({
      isError: true,
      output: 'cancelled',
    });
  });

  it('returns a describeApproval ToolError to the model without asking', async () => {
    const approver = new Answers('yes');
    const bad: Tool = {
      ...tool('patchy'),
      describeApproval: async () => {
        throw new ToolError('patch: hunk 1 not found');
      },
    };
    const { exec } = executor([bad], { patchy: 'ask' }, approver);
    expect(await exec.execute(req('patchy'), signal())).toMatchObject({
      output: 'patch: hunk 1 not found',
      isError: true,
    });
    expect(approver.asked).toBe(0);
  });
});
