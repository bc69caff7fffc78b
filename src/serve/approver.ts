/**
 * Who answers an `ask` when GeekAgent is the server: the client's person, through MCP elicitation
 * (`elicitation/create`, an accept/decline form with no fields) when a 2025-era client declared the
 * capability; otherwise nobody, so the call is refused with the flag that would let it through.
 * A 2026-07-28 client is asked only by an `input_required` result (multi round-trip), which the
 * executor's mid-call approval cannot return yet: such a client is refused with the same hint.
 */
import type { Server } from '@modelcontextprotocol/server';
import type { ApprovalAnswer, ApprovalRequest, Approver, PolicyReview } from '../permissions/types.js';

export const APPROVAL_TIMEOUT_MS = 10 * 60_000;

export class ServeApprover implements Approver {
  /** The era of the connection (set when serveStdio builds its instance). */
  era: 'legacy' | 'modern' = 'legacy';

  constructor(private readonly server: () => Server | undefined) {}

  /** Whether the connected client can be asked (a 2025 client that declared form elicitation). */
  canAsk(): boolean {
    if (this.era !== 'legacy') return false;
    return this.server()?.getClientCapabilities()?.elicitation?.form !== undefined;
  }

  async ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    const server = this.server();
    if (!server || !this.canAsk()) return 'no';
    const result = await server.elicitInput(
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
