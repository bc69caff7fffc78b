/**
 * The executor's gate vocabulary: policies, approval requests, the answers a person (or print
 * mode) gives, and the verdict for a call about to run. `permissions/` implements the policy store
 * and re-exports these for its users.
 */
import type { ApprovalPrompt, Tool } from './types.js';

export type Policy = 'allow' | 'ask' | 'deny';

/**
 * Answers to an `ask`: once, always (saved as an `allow` rule), no, or never (no, and saved as a
 * `deny` rule: an editor's "always reject").
 */
export type ApprovalAnswer = 'yes' | 'always' | 'no' | 'never';

/** Whether the answer lets the call run. */
export function approves(answer: ApprovalAnswer): boolean {
  return answer === 'yes' || answer === 'always';
}

/** Why a call is asked although a rule allows it: an MCP tool's definition changed since approved. */
export interface PolicyReview {
  /** Shown above the question: `definition changed since approved: description: "old…" → "new…"`. */
  reason: string;
  /** What an approver that cannot ask (print mode) tells the model instead of its usual hint. */
  refusal?: string;
}

export interface ApprovalRequest extends ApprovalPrompt {
  toolName: string;
  /**
   * The call's arguments as parsed, and its id: for an approver that hands the call to a program
   * (stream-json's `can_use_tool`) or ties the question to the call it shows (an editor).
   */
  input?: Record<string, unknown>;
  callId?: string;
  review?: PolicyReview;
  /** Protected paths the call touches (asked even under `allow`). */
  protectedPaths?: string[];
  /**
   * What each answer means when not "run once / always / no" (leaving plan mode): the faces show
   * these labels instead of `[y/N/a]`.
   */
  answers?: { yes: string; always: string; no: string };
}

/** Who answers `ask` questions: the TUI asks a person, print mode refuses. */
export interface Approver {
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
  /** Text returned to the model when the answer is no; `protectedPaths` as in the request. */
  refusalMessage(toolName: string, review?: PolicyReview, protectedPaths?: string[]): string;
}

/** The decision for one call about to run. */
export interface PolicyVerdict {
  policy: Policy;
  /** Set when an `allow` dropped back to `ask` (or an `ask` has something new to show). */
  review?: PolicyReview;
  /** Something the person should know (a pin that could not be saved). */
  notice?: string;
  /**
   * A rule the person wrote decided (a user, project or flag layer), not the defaults: an `ask` so
   * written is asked even where the tool would run unasked (a confined run_shell).
   */
  configured?: boolean;
}

/** What the executor needs from the policy store. */
export interface PolicyLookup {
  policyFor(toolName: string): Policy;
  /**
   * The verdict for a call about to run (MCP definitions checked against their pins): a promise
   * only when there is a pin to check.
   */
  verdictFor?(toolName: string): PolicyVerdict | Promise<PolicyVerdict>;
  /** The person approved a call of this tool (yes or always): pin the definition they saw. */
  approved?(toolName: string): Promise<void>;
  /** Records an "always" answer: an `allow` rule for this tool, in the person's answers. */
  allowAlways(toolName: string): Promise<void>;
  /** Records a "never" answer: a `deny` rule for this tool, in the person's answers. */
  denyAlways?(toolName: string): Promise<void>;
}

/**
 * The run's approval mode as the executor consults it, after the rules' verdict (a `deny` has
 * already refused): it may refuse the call (plan mode) or lift an `ask` (accept-edits, bypass).
 * Protected paths and a tool's own reason to ask are the executor's, asked whatever it says.
 */
export interface ModeGate {
  judge(tool: Tool, verdict: PolicyVerdict): { refuse: string } | { policy: Policy };
}
