/**
 * The executor's gate vocabulary: policies, approval requests and the answers a person (or print
 * mode) gives. `permissions/` implements the policy store and re-exports these for its users.
 */
import type { ApprovalPrompt } from './types.js';

export type Policy = 'allow' | 'ask' | 'deny';

/** Answers to an `ask`: once, always (saved as an `allow` rule), or no. */
export type ApprovalAnswer = 'yes' | 'always' | 'no';

export interface ApprovalRequest extends ApprovalPrompt {
  toolName: string;
}

/** Who answers `ask` questions: the TUI asks a person, print mode refuses. */
export interface Approver {
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
  /** Text returned to the model when the answer is no. */
  refusalMessage(toolName: string): string;
}

/** What the executor needs from the policy store. */
export interface PolicyLookup {
  policyFor(toolName: string): Policy;
  /** Records an "always" answer: `allow` for this exact name, in the project config file. */
  allowAlways(toolName: string): Promise<void>;
}
