/**
 * The library's approver: a call that needs a question goes to the caller's `canUseTool`; without
 * one nobody can answer, so it is refused (as print mode refuses) with a hint naming the options.
 */
import type { ApprovalAnswer, ApprovalRequest, Approver, PolicyReview } from '../tools/approval.js';
import { errorMessage } from '../util/errors.js';
import type { CanUseTool } from './types.js';

export class CanUseToolApprover implements Approver {
  /** Why the caller said no, per tool, for the refusal the model reads (questions come one at a time). */
  private readonly denials = new Map<string, string>();

  constructor(private readonly canUseTool: CanUseTool | undefined) {}

  async ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (!this.canUseTool) return 'no';
    const input = request.input ?? {};
    let why: string;
    try {
      const answer = await this.canUseTool(request.toolName, input, {
        signal,
        title: request.title,
        ...(request.callId !== undefined ? { toolUseID: request.callId } : {}),
      });
      if (answer.behavior === 'allow') {
        // The call runs with the arguments shown: a changed input cannot be applied, so it is a no.
        if (
          answer.updatedInput === undefined ||
          JSON.stringify(answer.updatedInput) === JSON.stringify(input)
        )
          return 'yes';
        why = 'updatedInput is not supported: the call was not run';
      } else why = answer.message ?? '';
    } catch (error) {
      why = `canUseTool failed: ${errorMessage(error)}`;
    }
    this.denials.set(request.toolName, why);
    return 'no';
  }

  refusalMessage(toolName: string, review?: PolicyReview, protectedPaths?: string[]): string {
    const why = this.denials.get(toolName);
    this.denials.delete(toolName);
    const refused = this.canUseTool
      ? 'refused by canUseTool'
      : `needs approval: pass canUseTool or allowedTools: ['${toolName}']`;
    const base =
      protectedPaths && protectedPaths.length > 0
        ? `protected path: ${protectedPaths.join(', ')}: ${refused}`
        : (review?.refusal ?? refused);
    return why ? `${base}: ${why}` : base;
  }
}
