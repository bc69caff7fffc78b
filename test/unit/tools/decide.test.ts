/**
 * decideCall, row by row: every fact the executor distinguishes (rule, mode, arguments, the
 * interceptors' word, protected paths, the tool's own reason, a confined run, a pin review) and
 * its verdict, and which gathered facts it asks for (a row that leaves one out shows whether the
 * verdict got that far). A second table feeds it the real approval modes' word, so mode × policy ×
 * tool is pinned as well.
 */
import { describe, expect, it } from 'vitest';
import { ApprovalMode, type ApprovalModeName } from '../../../src/permissions/approval-mode.js';
import type { Policy, PolicyReview } from '../../../src/tools/approval.js';
import type { BeforeToolCall } from '../../../src/tools/call-interceptors.js';
import { type CallChecks, type CallFacts, decideCall, type FinalVerdict } from '../../../src/tools/decide.js';
import type { Tool } from '../../../src/tools/types.js';

const pin: PolicyReview = { reason: 'definition changed since approved' };
const own: PolicyReview = { reason: 'leaves the sandbox', refusal: 'refused: unconfined' };
const none = { protectedPaths: [], runsUnasked: false };

/** A row's facts: what decideCall is told, and what its gather answers (left out: not reached). */
interface RowFacts extends CallFacts {
  hook?: BeforeToolCall | null;
  checks?: CallChecks;
}

/** A gathered fact the row left out, asked for: the verdict got that far. */
type Need = { kind: 'need'; fact: 'hook' } | { kind: 'need'; fact: 'checks'; sandbox: boolean };
type CallVerdict = FinalVerdict | Need;

class Needed {
  constructor(readonly need: Need) {}
}

/** decideCall with its gather answering from the row; a fact the row leaves out ends it as a Need. */
function decide(facts: RowFacts): CallVerdict {
  try {
    const verdict = decideCall(facts, {
      interceptorsSay: () => {
        if (facts.hook === undefined) throw new Needed({ kind: 'need', fact: 'hook' });
        return facts.hook;
      },
      checks: (sandbox) => {
        if (!facts.checks) throw new Needed({ kind: 'need', fact: 'checks', sandbox });
        return facts.checks;
      },
    });
    // Facts known at once give a verdict at once: no pause for a call with nothing to gather.
    if (verdict instanceof Promise) throw new Error('a synchronous gather gave a promise');
    return verdict;
  } catch (error) {
    if (error instanceof Needed) return error.need;
    throw error;
  }
}

/** The facts of a call that got as far as its checks, with `over` on top. */
function full(policy: Policy, over: Partial<RowFacts> = {}): RowFacts {
  return { toolName: 't', rules: { policy }, hook: null, checks: none, ...over };
}

type Row = [name: string, facts: RowFacts, verdict: CallVerdict];

const rows: Row[] = [
  // The rules and the mode, before anything else is known.
  [
    'deny rule',
    { toolName: 't', rules: { policy: 'deny' } },
    { kind: 'stop', decision: 'deny', message: 'permission denied: tool t is not allowed' },
  ],
  [
    'deny rule beats a mode that would allow and bad arguments',
    { toolName: 't', rules: { policy: 'deny' }, mode: { policy: 'allow' }, argumentsError: 'bad' },
    { kind: 'stop', decision: 'deny', message: 'permission denied: tool t is not allowed' },
  ],
  [
    'mode refuses (plan)',
    { toolName: 't', rules: { policy: 'allow' }, mode: { refuse: 'plan mode' }, argumentsError: 'bad' },
    { kind: 'stop', decision: 'refused', message: 'plan mode' },
  ],
  [
    'bad arguments under allow: reported as allowed, not run',
    { toolName: 't', rules: { policy: 'allow' }, argumentsError: 'bad' },
    { kind: 'stop', decision: 'allow', message: 'bad' },
  ],
  [
    'bad arguments under ask',
    { toolName: 't', rules: { policy: 'ask' }, argumentsError: 'bad' },
    { kind: 'stop', decision: 'refused', message: 'bad' },
  ],
  [
    'bad arguments under an ask the mode lifted',
    { toolName: 't', rules: { policy: 'ask' }, mode: { policy: 'allow' }, argumentsError: 'bad' },
    { kind: 'stop', decision: 'allow', message: 'bad' },
  ],
  [
    'allow: the hooks come next',
    { toolName: 't', rules: { policy: 'allow' } },
    { kind: 'need', fact: 'hook' },
  ],
  // The hooks' word.
  [
    'hook denies with a reason',
    { toolName: 't', rules: { policy: 'allow' }, hook: { decision: 'deny', reason: 'no rm' } },
    { kind: 'stop', decision: 'deny', message: 'no rm' },
  ],
  [
    'hook denies without one',
    { toolName: 't', rules: { policy: 'allow' }, hook: { decision: 'deny' } },
    { kind: 'stop', decision: 'deny', message: 'blocked by a hook: tool t' },
  ],
  [
    'default ask: the checks come next, the sandbox counts',
    { toolName: 't', rules: { policy: 'ask' }, hook: null },
    { kind: 'need', fact: 'checks', sandbox: true },
  ],
  [
    'written ask: the sandbox does not count',
    { toolName: 't', rules: { policy: 'ask', configured: true }, hook: null },
    { kind: 'need', fact: 'checks', sandbox: false },
  ],
  [
    'ask lifted by the mode: the sandbox does not count',
    { toolName: 't', rules: { policy: 'ask' }, mode: { policy: 'allow' }, hook: null },
    { kind: 'need', fact: 'checks', sandbox: false },
  ],
  // With every fact known.
  ['allow', full('allow'), { kind: 'allow' }],
  ['ask', full('ask'), { kind: 'ask', protectedPaths: [] }],
  ['ask lifted by the mode', full('ask', { mode: { policy: 'allow' } }), { kind: 'allow' }],
  [
    'protected path under allow',
    full('allow', { checks: { protectedPaths: ['.env'], runsUnasked: false } }),
    { kind: 'ask', protectedPaths: ['.env'] },
  ],
  [
    'protected path under a lifted ask, a hook allowing and a confined run',
    full('ask', {
      mode: { policy: 'allow' },
      hook: { decision: 'allow' },
      checks: { protectedPaths: ['.geekagent/'], runsUnasked: true },
    }),
    { kind: 'ask', protectedPaths: ['.geekagent/'] },
  ],
  [
    "tool's own reason under allow",
    full('allow', { checks: { protectedPaths: [], toolReview: own, runsUnasked: false } }),
    { kind: 'ask', protectedPaths: [], review: own },
  ],
  [
    "tool's own reason comes before a pin review",
    full('allow', {
      rules: { policy: 'ask', review: pin },
      checks: { protectedPaths: [], toolReview: own, runsUnasked: false },
    }),
    { kind: 'ask', protectedPaths: [], review: own },
  ],
  [
    'confined run under the default ask',
    full('ask', { checks: { protectedPaths: [], runsUnasked: true } }),
    { kind: 'allow' },
  ],
  [
    'confined run under a written ask',
    full('ask', {
      rules: { policy: 'ask', configured: true },
      checks: { protectedPaths: [], runsUnasked: true },
    }),
    { kind: 'ask', protectedPaths: [] },
  ],
  ['hook allows an ask', full('ask', { hook: { decision: 'allow' } }), { kind: 'allow' }],
  [
    'hook allow does not beat a pin review',
    full('ask', { rules: { policy: 'ask', review: pin }, hook: { decision: 'allow' } }),
    { kind: 'ask', protectedPaths: [], review: pin },
  ],
  [
    'hook asks under allow, its reason shown',
    full('allow', { hook: { decision: 'ask', reason: 'prod db' } }),
    {
      kind: 'ask',
      protectedPaths: [],
      review: {
        reason: 'a hook asks about this call: prod db',
        refusal:
          'refused: a hook asks the person about this call: prod db, and there is nobody to ask in this run',
      },
    },
  ],
  [
    'hook asks without a reason under a lifted ask',
    full('ask', { mode: { policy: 'allow' }, hook: { decision: 'ask' } }),
    {
      kind: 'ask',
      protectedPaths: [],
      review: {
        reason: 'a hook asks about this call',
        refusal: 'refused: a hook asks the person about this call, and there is nobody to ask in this run',
      },
    },
  ],
  [
    'pin review beats a hook ask in the shown reason',
    full('ask', { rules: { policy: 'ask', review: pin }, hook: { decision: 'ask', reason: 'x' } }),
    { kind: 'ask', protectedPaths: [], review: pin },
  ],
  ['a hook saying nothing changes nothing', full('allow', { hook: {} as BeforeToolCall }), { kind: 'allow' }],
];

describe('decideCall', () => {
  it.each(rows)('%s', (_name, facts, verdict) => {
    expect(decide(facts)).toEqual(verdict);
  });
});

// The real approval modes' word fed in: mode × rule × tool, with every later fact neutral.
const tool = (name: string, origin?: Tool['origin']): Tool => ({
  name,
  description: name,
  parameters: { type: 'object', properties: {} },
  run: async () => '',
  ...(origin ? { origin } : {}),
});
const readOnlyMcp = tool('srv__get', { kind: 'mcp', server: 'srv', tool: 'get' });
const writingMcp = tool('srv__put', { kind: 'mcp', server: 'srv', tool: 'put' });
const tools = {
  read: tool('read'),
  write: tool('write'),
  run_shell: tool('run_shell'),
  readOnlyMcp,
  writingMcp,
};
type ToolKey = keyof typeof tools;

/** The expected verdict kind per mode and tool, for rules `allow` and `ask` (`deny` always denies). */
const modeTable: Record<ApprovalModeName, Record<ToolKey, { allow: string; ask: string }>> = {
  default: {
    read: { allow: 'allow', ask: 'ask' },
    write: { allow: 'allow', ask: 'ask' },
    run_shell: { allow: 'allow', ask: 'ask' },
    readOnlyMcp: { allow: 'allow', ask: 'ask' },
    writingMcp: { allow: 'allow', ask: 'ask' },
  },
  'accept-edits': {
    read: { allow: 'allow', ask: 'ask' },
    write: { allow: 'allow', ask: 'allow' },
    run_shell: { allow: 'allow', ask: 'ask' },
    readOnlyMcp: { allow: 'allow', ask: 'ask' },
    writingMcp: { allow: 'allow', ask: 'ask' },
  },
  plan: {
    read: { allow: 'allow', ask: 'ask' },
    write: { allow: 'refused', ask: 'refused' },
    run_shell: { allow: 'refused', ask: 'refused' },
    readOnlyMcp: { allow: 'allow', ask: 'ask' },
    writingMcp: { allow: 'refused', ask: 'refused' },
  },
  bypass: {
    read: { allow: 'allow', ask: 'allow' },
    write: { allow: 'allow', ask: 'allow' },
    run_shell: { allow: 'allow', ask: 'allow' },
    readOnlyMcp: { allow: 'allow', ask: 'allow' },
    writingMcp: { allow: 'allow', ask: 'allow' },
  },
};

/** The verdict as one word: allow, ask, deny or refused. */
function word(verdict: CallVerdict): string {
  return verdict.kind === 'stop' ? verdict.decision : verdict.kind;
}

describe('decideCall under each approval mode', () => {
  const cases = Object.entries(modeTable).flatMap(([mode, byTool]) =>
    Object.entries(byTool).flatMap(([key, expected]) =>
      (['allow', 'ask', 'deny'] as const).map((policy) => ({
        mode: mode as ApprovalModeName,
        key: key as ToolKey,
        policy,
        want: policy === 'deny' ? 'deny' : expected[policy],
      })),
    ),
  );
  it.each(cases)('$mode × $policy × $key → $want', ({ mode, key, policy, want }) => {
    const gate = new ApprovalMode({ trustedByPerson: true, isReadOnlyMcp: (name) => name === 'srv__get' });
    expect(gate.set(mode)).toBeUndefined();
    const rules = { policy };
    const facts = full(policy, { rules, mode: gate.judge(tools[key], rules) });
    expect(word(decide(facts))).toBe(want);
    // A protected path is asked in every mode that lets the call get that far.
    const guarded = decide({ ...facts, checks: { protectedPaths: ['.env'], runsUnasked: false } });
    expect(word(guarded)).toBe(want === 'allow' || want === 'ask' ? 'ask' : want);
    // So is a changed MCP definition (an allow dropped back to ask), whatever the mode.
    if (policy !== 'ask') return;
    const reviewed = { policy, review: pin };
    const pinned = decide(full(policy, { rules: reviewed, mode: gate.judge(tools[key], reviewed) }));
    expect(word(pinned)).toBe(want === 'refused' ? 'refused' : 'ask');
  });
});
