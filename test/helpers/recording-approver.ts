/** An Approver that gives one fixed answer and keeps every request it was asked, for executor tests. */
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../../src/permissions/types.js';

export class RecordingApprover implements Approver {
  readonly requests: ApprovalRequest[] = [];
  constructor(private readonly answer: ApprovalAnswer) {}
  async ask(request: ApprovalRequest): Promise<ApprovalAnswer> {
    this.requests.push(request);
    return this.answer;
  }
  refusalMessage(name: string): string {
    return `declined ${name}`;
  }
}
