/**
 * Permission vocabulary shared by the policy store, the executor and the faces (print mode, TUI):
 * policies, approval requests and the answers a person (or print mode) gives. Defined beside the
 * executor (tools/approval.ts), which sits below this folder; re-exported here for its users.
 */
export type {
  ApprovalAnswer,
  ApprovalRequest,
  Approver,
  Policy,
  PolicyLookup,
  PolicyReview,
  PolicyVerdict,
} from '../tools/approval.js';
export { approves } from '../tools/approval.js';
