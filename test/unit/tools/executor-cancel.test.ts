/**
 * Cancellation always ends a call, whatever the tool does: a tool that ignores its signal and
 * never settles, an approval whose text never finishes, and the questions queued behind it.
 */
import { getEventListeners } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PolicyStore } from '../../../src/permissions/policy.js';
import type { ApprovalAnswer, Approver } from '../../../src/permissions/types.js';
import { ToolExecutor } from '../../../src/tools/executor.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { Tool } from '../../../src/tools/types.js';
import { RootSandbox } from '../../../src/workspace/root-sandbox.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'geekagent-cancel-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const NEVER = new Promise<never>(() => undefined);

/** A tool that ignores its signal and never settles (like a read stuck in a blocking call). */
function stuckTool(name: string, started: () => void, describe?: Tool['describeApproval']): Tool {
  return {
    name,
    description: name,
    parameters: { type: 'object', properties: {} },
    run: () => {
      started();
      return NEVER;
    },
    ...(describe ? { describeApproval: describe } : {}),
  };
}

const yes: Approver = {
  ask: async (): Promise<ApprovalAnswer> => 'yes',
  refusalMessage: (name) => `declined ${name}`,
};

function executor(tools: Tool[], rules: Record<string, 'allow' | 'ask' | 'deny'>) {
  const registry = new ToolRegistry();
  for (const t of tools) registry.register(t);
  return new ToolExecutor({
    registry,
    policies: new PolicyStore({ layers: [{ label: 'project', rules }] }),
    approver: yes,
    redact: (text) => text,
    context: { sandbox: new RootSandbox(root), undo: { record: async () => undefined }, env: {} },
  });
}

const req = (name: string) => ({ id: '1', name, arguments: '{}' });

describe('ToolExecutor cancellation', () => {
  it('ends a call whose tool ignores the signal: the result is "cancelled"', async () => {
    const turn = new AbortController();
    const exec = executor([stuckTool('stuck', () => turn.abort())], { stuck: 'allow' });
    const outcome = await exec.execute(req('stuck'), turn.signal);
    expect(outcome).toMatchObject({ decision: 'allow', output: 'cancelled', isError: true });
  });

  it('ends a question whose text never finishes, and the next question is not stuck behind it', async () => {
    const first = new AbortController();
    let describing: () => void = () => undefined;
    const described = new Promise<void>((resolve) => {
      describing = resolve;
    });
    const hanging = stuckTool(
      'hanging',
      () => undefined,
      () => {
        describing();
        return NEVER;
      },
    );
    const quick: Tool = {
      name: 'quick',
      description: 'quick',
      parameters: { type: 'object', properties: {} },
      run: async () => 'quick ran',
    };
    const exec = executor([hanging, quick], { hanging: 'ask', quick: 'ask' });
    const stuck = exec.execute(req('hanging'), first.signal);
    await described;
    first.abort();
    expect(await stuck).toMatchObject({ decision: 'refused', output: 'cancelled before the tool ran' });
    // A later turn's question goes ahead.
    const next = await exec.execute(req('quick'), new AbortController().signal);
    expect(next).toMatchObject({ decision: 'approved', output: 'quick ran', isError: false });
  });

  it('leaves the signal alone for a tool that ends on abort itself (an MCP call), and still ends it', async () => {
    const turn = new AbortController();
    let heldWhileRunning = -1;
    const ownCancel: Tool = {
      name: 'own_cancel',
      description: 'own cancel',
      parameters: { type: 'object', properties: {} },
      endsOnAbort: true,
      run: async (_args, ctx) => {
        const ended = new Promise<never>((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
        });
        // Once the executor is waiting for the run: only the tool's own listener, none to race it.
        await Promise.resolve();
        heldWhileRunning = getEventListeners(ctx.signal, 'abort').length;
        turn.abort();
        return ended;
      },
    };
    const exec = executor([ownCancel], { own_cancel: 'allow' });
    const outcome = await exec.execute(req('own_cancel'), turn.signal);
    expect(heldWhileRunning).toBe(1);
    expect(outcome).toMatchObject({ decision: 'allow', output: 'cancelled', isError: true });
  });
});
