/**
 * Questions asked in the editor: every `ask` becomes `session/request_permission` with allow once /
 * allow always / reject once / reject always. "Allow always" is the TUI's `a` (an allow rule saved
 * in the person's answers for the folder, in their own state); "reject always" is saved the same
 * way as a deny rule, so the tool is refused unasked from then on, in this session and the next.
 * A server's elicitation that is a plain confirmation is asked the same way; a form is
 * declined with a note, since ACP has no form yet that every editor shows.
 */
import type { AgentContext, PermissionOption, ToolCallUpdate } from '@agentclientprotocol/sdk/unstable';
import type { ElicitationAnswer, ElicitationHandler, ElicitationRequest } from '../mcp/client-features.js';
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../permissions/types.js';

const OPTIONS: PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject_always', name: 'Always reject', kind: 'reject_always' },
];

const ELICITATION_OPTIONS: PermissionOption[] = [
  { optionId: 'allow_once', name: 'Accept', kind: 'allow_once' },
  { optionId: 'reject_once', name: 'Decline', kind: 'reject_once' },
];

export interface PermissionAsker {
  /** The option the person chose, or undefined when the question was cancelled. */
  ask(
    toolCall: ToolCallUpdate,
    options: PermissionOption[],
    signal: AbortSignal,
  ): Promise<string | undefined>;
}

export function permissionAsker(client: AgentContext, sessionId: () => string): PermissionAsker {
  return {
    async ask(toolCall, options, signal) {
      const answer = await client.request(
        'session/request_permission',
        { sessionId: sessionId(), toolCall, options },
        { cancellationSignal: signal, stopWaitingOnCancel: true },
      );
      return answer.outcome.outcome === 'selected' ? answer.outcome.optionId : undefined;
    },
  };
}

export class AcpApprover implements Approver {
  /** Tools the person answered "reject always" for (the refusal says so). */
  private readonly rejected = new Set<string>();

  constructor(private readonly asker: PermissionAsker) {}

  async ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    const toolCall: ToolCallUpdate = {
      toolCallId: request.callId ?? `ask-${request.toolName}`,
      title: request.title,
      content: [{ type: 'content', content: { type: 'text', text: request.detail } }],
    };
    // A question with its own answers (leaving plan mode) offers those, and no "always reject".
    const options = request.answers
      ? [
          { optionId: 'allow_once', name: request.answers.yes, kind: 'allow_once' as const },
          { optionId: 'allow_always', name: request.answers.always, kind: 'allow_always' as const },
          { optionId: 'reject_once', name: request.answers.no, kind: 'reject_once' as const },
        ]
      : OPTIONS;
    const chosen = await this.asker.ask(toolCall, options, signal);
    signal.throwIfAborted();
    switch (chosen) {
      case 'allow_once':
        return 'yes';
      case 'allow_always':
        return 'always';
      case 'reject_always':
        this.rejected.add(request.toolName);
        return 'never';
      default:
        return 'no';
    }
  }

  refusalMessage(toolName: string): string {
    return this.rejected.has(toolName)
      ? `the user declined ${toolName} and chose to refuse it from now on in this folder`
      : `the user declined to run ${toolName}`;
  }
}

/** A form with nothing to fill in (or one yes/no field) is a confirmation: asked as a permission. */
export function acpElicitation(asker: PermissionAsker, note: (text: string) => void): ElicitationHandler {
  return {
    async elicit(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
      const fields = Object.entries(request.schema.properties ?? {});
      const single = fields.length === 1 ? fields[0] : undefined;
      const confirm = fields.length === 0 || single?.[1].type === 'boolean';
      if (!confirm) {
        note(
          `MCP server ${request.server} asked for a form (${fields.map(([name]) => name).join(', ')}); ` +
            'declined: forms cannot be filled in from the editor yet (use the GeekAgent TUI for this server)',
        );
        return { action: 'decline' };
      }
      const chosen = await asker.ask(
        {
          toolCallId: `elicitation-${request.server}-${Date.now()}`,
          title: `MCP server ${request.server} asks`,
          kind: 'other',
          content: [{ type: 'content', content: { type: 'text', text: request.message } }],
        },
        ELICITATION_OPTIONS,
        signal,
      );
      if (chosen === undefined) return { action: 'cancel' };
      if (chosen !== 'allow_once') return { action: 'decline' };
      return { action: 'accept', content: single ? { [single[0]]: true } : {} };
    },
  };
}
