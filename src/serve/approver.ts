/**
 * Who answers an `ask` when GeekAgent is the server: the client's person, through MCP elicitation
 * (`elicitation/create`, an accept/decline form with no fields) when the client declared the
 * capability; otherwise nobody, so the call is refused with the flag that would let it through.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ApprovalAnswer, ApprovalRequest, Approver, PolicyReview } from '../permissions/types.js';

export const APPROVAL_TIMEOUT_MS = 10 * 60_000;

export class ServeApprover implements Approver {
  constructor(private readonly server: Server) {}

  /** Whether the connected client can be asked (form elicitation declared at initialize). */
  canAsk(): boolean {
    return this.server.getClientCapabilities()?.elicitation?.form !== undefined;
  }

  async ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (!this.canAsk()) return 'no';
    const result = await this.server.elicitInput(
      {
        mode: 'form',
        message: `${request.title}\n\n${request.detail}\n\nAccept to run it once; decline to refuse.`,
        requestedSchema: { type: 'object', properties: {} },
      },
      // A person reads and decides: the SDK's 60 s request default would refuse a slow yes.
      { signal, timeout: APPROVAL_TIMEOUT_MS },
    );
    // Only an explicit accept runs the tool; decline and cancel (dismissed) refuse it.
    return result.action === 'accept' ? 'yes' : 'no';
  }

  refusalMessage(toolName: string, review?: PolicyReview, protectedPaths?: string[]): string {
    const asked = this.canAsk();
    if (protectedPaths && protectedPaths.length > 0) {
      const flags = protectedPaths.map((shown) => `--allow-protected ${shown}`).join(' ');
      return asked
        ? `refused: the call of ${toolName} touches a protected path (${protectedPaths.join(', ')}) and was declined`
        : `refused: the call of ${toolName} touches a protected path (${protectedPaths.join(', ')}); start geekagent mcp serve with ${flags} to allow it`;
    }
    // A reason the call is asked whatever the rules say (--allow would not help): its own words.
    if (!asked && review?.refusal) return `refused: ${review.refusal}`;
    return asked
      ? `refused: the call of ${toolName} was declined when asked`
      : `refused: ${toolName} needs approval and this client cannot be asked (no elicitation support); start geekagent mcp serve with --allow ${toolName} to allow it`;
  }
}
