/**
 * Permission vocabulary shared by the policy store, the executor and the faces (print mode, TUI):
 * policies, approval requests and the answers a person (or print mode) gives.
 */
import type { ApprovalPrompt } from '../tools/types.js';

export type Policy = 'allow' | 'ask' | 'deny';

/** Answers to an `ask`: once, always (saved as an `allow` rule), or no. */
export type ApprovalAnswer = 'yes' | 'always' | 'no';

export interface ApprovalRequest extends ApprovalPrompt {
  toolName: string;
  /** Protected paths the call touches (asked even under `allow`). */
  protectedPaths?: string[];
}

/** Who answers `ask` questions: the TUI asks a person, print mode refuses. */
export interface Approver {
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
  /** Text returned to the model when the answer is no; `protectedPaths` as in the request. */
  refusalMessage(toolName: string, protectedPaths?: string[]): string;
}

/** What the executor needs from the policy store. */
export interface PolicyLookup {
  policyFor(toolName: string): Policy;
  /** Records an "always" answer: `allow` for this exact name, in the project config file. */
  allowAlways(toolName: string): Promise<void>;
}
