/**
 * Approval modes on the seam: the panel's Mode row, `/mode`, the `approval_mode` (and last `plan`)
 * fields of print mode's JSON, plan mode's note in each turn's context, and `exit_plan_mode` —
 * the model's way out of plan mode, which only the person can take: the face's approver asks
 * whether to carry the plan out and in which mode (print mode cannot ask: the plan is the answer).
 * The mode itself is the app's `ApprovalMode` (permissions/approval-mode.ts).
 */

import { type Extension, PANEL_ORDER, PROMPT_ORDER } from '../../extensions/types.js';
import { type ApprovalRequest, type Approver, approves } from '../../tools/approval.js';
import { type Tool, ToolError } from '../../tools/types.js';
import {
  APPROVAL_MODES,
  type ApprovalMode,
  type ApprovalModeName,
  MODE_DESCRIPTIONS,
} from '../approval-mode.js';
import type { PermissionConfig } from '../config.js';

const PLAN_LIMIT = 20_000;

/** The answers of the leave-plan-mode question, as the faces label them. */
export const PLAN_ANSWERS = {
  yes: 'yes, ask before edits',
  always: 'yes, accept edits',
  no: 'no, keep planning',
} as const;

const PLAN_NOTE =
  'Plan mode is on: the person wants a plan before anything changes. Only read-only tools run ' +
  '(read, ls, glob, search, fetch, read-only MCP tools); anything else is refused. Investigate, then ' +
  'call exit_plan_mode with your plan; the person decides whether to carry it out. Do not change anything yet.';

export function approvalModeExtension(mode: ApprovalMode, approver: Approver): Extension {
  let lastPlan: string | undefined;
  return {
    name: 'approval-mode',
    setup(host) {
      mode.onChange(() => host.changed());
      host.panel(() => ({ label: 'Mode', value: mode.current, order: PANEL_ORDER.approvalMode }));
      host.report('approval_mode', () => mode.current);
      host.report('plan', () => lastPlan);
      // In the turn's context, not the system prompt: switching modes keeps the prompt cache.
      host.on.prompt(async () =>
        mode.current === 'plan'
          ? { order: PROMPT_ORDER.approvalMode, text: PLAN_NOTE, placement: 'turn' }
          : undefined,
      );
      host.commands.add({
        name: 'mode',
        usage: `/mode [${APPROVAL_MODES.join('|')}]`,
        description: 'show or set the approval mode (Shift+Tab cycles)',
        run: async (args, ctx) => {
          const wanted = args[0];
          if (wanted === undefined) {
            ctx.print(describeModes(mode.current));
            return;
          }
          const refused = mode.set(wanted);
          if (refused) ctx.print(refused, 'error');
          else ctx.print(`approval mode: ${mode.current} — ${MODE_DESCRIPTIONS[mode.current]}`);
        },
      });
      host.tools.add(
        exitPlanModeTool(mode, approver, (plan) => {
          lastPlan = plan;
        }),
        'allow',
      );
    },
  };
}

export function describeModes(current: ApprovalModeName): string {
  return APPROVAL_MODES.map(
    (name) => `${name === current ? '●' : '○'} ${name} — ${MODE_DESCRIPTIONS[name]}`,
  ).join('\n');
}

function exitPlanModeTool(mode: ApprovalMode, approver: Approver, keep: (plan: string) => void): Tool {
  return {
    name: 'exit_plan_mode',
    description:
      'In plan mode only: present your plan to the person, who decides whether to leave plan mode and ' +
      'carry it out. Call it once you have investigated and know what to do.',
    parameters: {
      type: 'object',
      properties: { plan: { type: 'string', description: 'The plan, in Markdown: steps, files, checks.' } },
      required: ['plan'],
      additionalProperties: false,
    },
    async run(args, ctx) {
      if (mode.current !== 'plan')
        return `not in plan mode (the approval mode is ${mode.current}): nothing to leave, carry on with the task`;
      const plan = typeof args.plan === 'string' ? args.plan.trim() : '';
      if (plan === '') throw new ToolError('exit_plan_mode: "plan" must be a non-empty string');
      const shown = plan.length > PLAN_LIMIT ? `${plan.slice(0, PLAN_LIMIT)}…` : plan;
      keep(shown);
      const request: ApprovalRequest = {
        title: 'Leave plan mode and carry out this plan?',
        detail: ctx.redact ? ctx.redact(shown) : shown,
        kind: 'generic',
        toolName: 'exit_plan_mode',
        answers: { ...PLAN_ANSWERS },
      };
      const answer = await approver.ask(request, ctx.signal);
      if (!approves(answer))
        return (
          'The person kept plan mode on (or nobody can be asked here). Do not change anything: end your ' +
          'turn with the plan as your answer, or ask what to change in it.'
        );
      const next: ApprovalModeName = answer === 'always' ? 'accept-edits' : 'default';
      const refused = mode.set(next);
      if (refused) return `could not leave plan mode: ${refused}`;
      return `The person approved the plan; approval mode is now ${next} (${MODE_DESCRIPTIONS[next]}). Carry out the plan now.`;
    },
  };
}

/**
 * The first mode: `--approval-mode`, else the user's `approvalMode`, else default. A refused one
 * (bypass in a folder the person has not trusted) falls back and says so; a project's is ignored.
 */
export function startApprovalMode(
  mode: ApprovalMode,
  flag: string | undefined,
  permissions: PermissionConfig,
): string[] {
  const notices: string[] = [];
  if (permissions.projectApprovalMode !== undefined)
    notices.push(
      `"approvalMode" in ${permissions.projectFile} is ignored: the approval mode is the person's choice (--approval-mode, /mode, or ~/.geekagent/GeekAgent.json)`,
    );
  const refusals = new Set<string>();
  for (const wanted of [flag, permissions.userApprovalMode]) {
    if (wanted === undefined) continue;
    const refused = mode.set(wanted);
    if (!refused) break;
    refusals.add(refused);
  }
  for (const refused of refusals) notices.push(`${refused}; running in ${mode.current} mode`);
  return notices;
}
