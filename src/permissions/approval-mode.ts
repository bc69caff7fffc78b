/**
 * Approval modes: one per app (sub-agents share it), consulted by every executor after the rules.
 * `default` asks as the rules say; `accept-edits` lets `write`/`patch` run unasked (they only
 * touch files inside the root); `plan` runs only read-only tools and refuses the rest with a
 * message telling the model it is planning; `bypass` lifts every `ask`. A `deny` rule, a
 * protected path, a tool's own reason to ask (a command leaving the sandbox) and a changed MCP
 * definition still refuse or ask in every mode. `bypass` needs a folder the person trusted.
 */
import type { ModeGate, Policy, PolicyVerdict } from '../tools/approval.js';
import type { Tool } from '../tools/types.js';

export const APPROVAL_MODES = ['default', 'accept-edits', 'plan', 'bypass'] as const;
export type ApprovalModeName = (typeof APPROVAL_MODES)[number];

/** What each mode means, for `/mode`, `--help` and ACP's mode list. */
export const MODE_DESCRIPTIONS: Record<ApprovalModeName, string> = {
  default: 'ask before anything the rules do not allow',
  'accept-edits': 'write and patch files inside the root without asking',
  plan: 'read-only tools only: investigate and propose a plan',
  bypass: 'run everything without asking, except deny rules and protected paths',
};

/** The modes as Claude Code names them (hooks' `permission_mode`, stream-json's `permissionMode`). */
export const CLAUDE_MODE_NAMES: Record<ApprovalModeName, string> = {
  default: 'default',
  'accept-edits': 'acceptEdits',
  plan: 'plan',
  bypass: 'bypassPermissions',
};

/** Edits that accept-edits lets through: file tools that stay inside the root. */
const EDIT_TOOLS = new Set(['write', 'patch']);

/**
 * What plan mode runs: the built-in readers, the planning tools (todo list, tool search, a
 * sub-agent — whose calls meet the same mode), and `exit_plan_mode` itself.
 */
export const PLAN_MODE_TOOLS: ReadonlySet<string> = new Set([
  'read',
  'ls',
  'glob',
  'search',
  'fetch',
  'get_current_time',
  'tool_search',
  'memory_search',
  'rag_search',
  'todo_write',
  'shell_output',
  'use_skill',
  'delegate_task',
  'exit_plan_mode',
]);

export function parseApprovalMode(value: string): ApprovalModeName | undefined {
  return (APPROVAL_MODES as readonly string[]).includes(value) ? (value as ApprovalModeName) : undefined;
}

export interface ApprovalModeOptions {
  /** Whether the person trusted the folder (not merely "declares nothing"): bypass needs it. */
  trustedByPerson: boolean;
  /** MCP tools whose server marked them `readOnlyHint: true` (they run in plan mode). */
  isReadOnlyMcp(name: string): boolean;
}

export class ApprovalMode implements ModeGate {
  private mode: ApprovalModeName = 'default';
  private readonly listeners = new Set<(mode: ApprovalModeName) => void>();
  /** Bypass joins the Shift+Tab cycle only once the person chose it (flag, config, /mode). */
  private bypassChosen = false;

  constructor(private readonly options: ApprovalModeOptions) {}

  readonly modes: readonly ApprovalModeName[] = APPROVAL_MODES;

  get current(): ApprovalModeName {
    return this.mode;
  }

  /** Why `mode` cannot be used here; undefined when it can. */
  refusal(mode: string): string | undefined {
    if (!parseApprovalMode(mode))
      return `unknown approval mode "${mode}": use one of ${APPROVAL_MODES.join(', ')}`;
    if (mode === 'bypass' && !this.options.trustedByPerson)
      return 'approval mode bypass refused: this folder is not trusted (trust it with `geekagent trust` or --trust, then choose bypass)';
    return undefined;
  }

  /** Switches to `mode`; the error text when it is refused (the mode stays as it was). */
  set(mode: string): string | undefined {
    const refused = this.refusal(mode);
    if (refused) return refused;
    const next = mode as ApprovalModeName;
    if (next === 'bypass') this.bypassChosen = true;
    if (next === this.mode) return undefined;
    this.mode = next;
    for (const listener of this.listeners) listener(next);
    return undefined;
  }

  /** The next mode of the Shift+Tab cycle (bypass only once chosen), switched to. */
  cycle(): ApprovalModeName {
    const cycle = this.modes.filter((mode) => mode !== 'bypass' || this.bypassChosen);
    const next = cycle[(cycle.indexOf(this.mode) + 1) % cycle.length]!;
    this.set(next);
    return this.mode;
  }

  onChange(listener: (mode: ApprovalModeName) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Read-only: runs in plan mode. */
  isReadOnly(tool: Tool): boolean {
    if (PLAN_MODE_TOOLS.has(tool.name)) return true;
    if (tool.origin?.kind !== 'mcp') return false;
    // A server's resource helpers only list and read.
    return tool.origin.resourceHelper === true || this.options.isReadOnlyMcp(tool.name);
  }

  judge(tool: Tool, verdict: PolicyVerdict): { refuse: string } | { policy: Policy } {
    const policy = verdict.policy;
    if (this.mode === 'plan') {
      if (this.isReadOnly(tool)) return { policy };
      return { refuse: planRefusal(tool.name) };
    }
    // A changed MCP definition is asked in every mode: that is what the pin is for.
    if (policy !== 'ask' || verdict.review) return { policy };
    if (this.mode === 'bypass') return { policy: 'allow' };
    if (this.mode === 'accept-edits' && EDIT_TOOLS.has(tool.name) && !tool.origin) return { policy: 'allow' };
    return { policy };
  }
}

export function planRefusal(toolName: string): string {
  return (
    `plan mode: ${toolName} was not run. The person put this session in plan mode: only read-only ` +
    'tools run (read, ls, glob, search, fetch, read-only MCP tools). Investigate with those, then ' +
    'call exit_plan_mode with your plan (or answer with it); the person decides whether to carry it out.'
  );
}
