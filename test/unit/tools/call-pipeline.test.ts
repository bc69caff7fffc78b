/**
 * The call pipeline as the executor runs it: its steps in order, and the interceptors (the seam
 * the lifecycle hooks use) consulted only when the verdict gets to them — never for a call a deny
 * rule, the approval mode or bad arguments already settled — and their word taken once.
 */
import { describe, expect, it } from 'vitest';
import type { ApprovalAnswer, ApprovalRequest, Policy } from '../../../src/tools/approval.js';
import { type BeforeToolCall, ToolCallInterceptors } from '../../../src/tools/call-interceptors.js';
import { CALL_STEPS } from '../../../src/tools/call-pipeline.js';
import { ToolExecutor } from '../../../src/tools/executor.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { Tool, ToolDecision } from '../../../src/tools/types.js';

function setup(policy: Policy, said: BeforeToolCall | undefined, answer: ApprovalAnswer = 'yes') {
  const registry = new ToolRegistry();
  const ran: string[] = [];
  const tool: Tool = {
    name: 'echo',
    description: 'echo',
    parameters: { type: 'object', properties: {} },
    run: async (args) => {
      ran.push(String(args.text));
      return `said ${String(args.text)}`;
    },
  };
  registry.register(tool);
  const consulted: string[] = [];
  const asked: ApprovalRequest[] = [];
  const interceptors = new ToolCallInterceptors();
  interceptors.add({
    before: async (call) => {
      consulted.push(String(call.args.text));
      return said;
    },
    after: async () => 'a note',
  });
  const executor = new ToolExecutor({
    registry,
    policies: { policyFor: () => policy, allowAlways: async () => undefined },
    approver: {
      ask: async (request) => {
        asked.push(request);
        return answer;
      },
      refusalMessage: () => 'refused by the person',
    },
    redact: (text) => text,
    context: { sandbox: undefined as never, undo: undefined as never, env: {} },
    interceptors,
  });
  const call = async (args: string) => {
    const decisions: ToolDecision[] = [];
    const outcome = await executor.execute(
      { id: 'c1', name: 'echo', arguments: args },
      new AbortController().signal,
      {
        onDecision: (decision) => decisions.push(decision),
      },
    );
    return { outcome, decisions };
  };
  return { call, ran, consulted, asked };
}

describe('the call pipeline', () => {
  it('runs its steps in order', () => {
    expect(CALL_STEPS.map((step) => step.name)).toEqual([
      'findTool',
      'checkVisible',
      'decideVerdict',
      'askApproval',
      'runTool',
    ]);
  });

  it('does not consult the interceptors for a call already settled', async () => {
    const denied = setup('deny', { decision: 'allow' });
    const { outcome } = await denied.call('{"text":"x"}');
    expect(outcome).toMatchObject({ decision: 'deny', isError: true });
    expect(denied.consulted).toEqual([]);
    const bad = setup('allow', { decision: 'allow' });
    expect((await bad.call('[1]')).outcome.output).toMatch(/expected a JSON object/);
    expect(bad.consulted).toEqual([]);
  });

  it('takes the interceptors’ word once: an allow skips the question, an ask forces it, a deny ends the call', async () => {
    const allowed = setup('ask', { decision: 'allow' });
    const ran = await allowed.call('{"text":"hi"}');
    expect(ran.outcome).toMatchObject({ decision: 'allow', output: 'said hi\n\na note', isError: false });
    expect(ran.decisions).toEqual(['allow']);
    expect(allowed.consulted).toEqual(['hi']);
    expect(allowed.asked).toEqual([]);

    const asking = setup('allow', { decision: 'ask', reason: 'prod' });
    const approved = await asking.call('{"text":"db"}');
    expect(approved.outcome).toMatchObject({ decision: 'approved', isError: false });
    expect(asking.asked[0]?.review?.reason).toBe('a hook asks about this call: prod');

    const denying = setup('allow', { decision: 'deny', reason: 'no' });
    expect((await denying.call('{"text":"rm"}')).outcome).toMatchObject({ decision: 'deny', output: 'no' });
    expect(denying.ran).toEqual([]);
  });
});
