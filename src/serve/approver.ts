/**
 * Who answers an `ask` when GeekAgent is the server: the client's person, through MCP elicitation
 * (an accept/decline form with no fields) when the client declared the capability — a 2025-era
 * client by an `elicitation/create` request, a 2026-07-28 one by an `input_required` result it
 * answers by calling again (approval-rounds.ts); otherwise nobody, so the call is refused with the
 * flag that would let it through.
 */
import type { Server } from '@modelcontextprotocol/server';
import type { ApprovalAnswer, ApprovalRequest, Approver, PolicyReview } from '../permissions/types.js';
import { ApprovalRounds } from './approval-rounds.js';

export const APPROVAL_TIMEOUT_MS = 10 * 60_000;

export class ServeApprover implements Approver {
  /** The era of the connection (set when serveStdio builds its instance). */
  era: 'legacy' | 'modern' = 'legacy';
  /** How a 2026 client is asked: the rounds of its calls. */
  readonly rounds = new ApprovalRounds(APPROVAL_TIMEOUT_MS);

  constructor(private readonly server: () => Server | undefined) {}

  /** Whether the connected client can be asked (one that declared form elicitation). */
  canAsk(): boolean {
    if (this.era !== 'legacy') return this.rounds.canAsk();
    return this.server()?.getClientCapabilities()?.elicitation?.form !== undefined;
  }

  async ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (this.era !== 'legacy') return this.rounds.answer(request);
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
