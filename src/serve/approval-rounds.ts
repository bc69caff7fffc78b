/**
 * Asking a 2026-07-28 client's person (`mcp serve`): that era has no server-to-client requests, so
 * a call that needs approval answers `input_required` with an elicitation (an accept/decline form
 * with no fields) and the client calls again with the person's answer (multi round-trip). Each
 * round runs the call afresh: the executor asks before the tool runs, so a round that stops at a
 * question has done nothing. What earlier rounds settled travels in `requestState`, sealed with the
 * SDK's HMAC codec under a key of this process (one stdio process serves every round), bound to
 * the call (tool and arguments) and expiring with the question; an answer counts only for the
 * question this server asked in the round before, so a client cannot pre-answer one.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomBytes } from 'node:crypto';
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  createRequestStateCodec,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ApprovalRequest } from '../permissions/types.js';

/** What a round hands the next one (readable by the client, not forgeable). */
interface RoundState {
  /** The call it belongs to: a digest of the tool's name and arguments. */
  call: string;
  /** Questions the person accepted in earlier rounds. */
  approved: string[];
  /** The question asked in the round before (its answer is in this round's inputResponses). */
  asked: string;
}

interface Round {
  canAsk: boolean;
  approved: Set<string>;
  declined: Set<string>;
  /** The first question this round could not answer: the client is asked it. */
  pending?: { key: string; message: string };
}

export class ApprovalRounds {
  private readonly codec;
  private readonly current = new AsyncLocalStorage<Round>();

  constructor(timeoutMs: number) {
    this.codec = createRequestStateCodec<RoundState>({
      key: randomBytes(32),
      ttlSeconds: Math.ceil(timeoutMs / 1000),
    });
  }

  /** For `ServerOptions.requestState.verify`: a state this process did not seal is refused. */
  readonly verify = (state: string, ctx: ServerContext) => this.codec.verify(state, ctx);

  /**
   * One round of a call: runs `work` (the executor) with this round's answers; when it stopped at
   * a question the client can be asked, the result is `input_required` with that question instead.
   */
  async run(
    name: string,
    args: Record<string, unknown>,
    ctx: ServerContext,
    work: () => Promise<CallToolResult>,
  ): Promise<CallToolResult | InputRequiredResult> {
    const call = digest(`${name}\0${JSON.stringify(args)}`);
    const round: Round = { canAsk: canElicit(ctx), approved: new Set(), declined: new Set() };
    const state = ctx.mcpReq.requestState<RoundState>();
    if (state && typeof state === 'object' && state.call === call) {
      for (const key of state.approved) round.approved.add(key);
      const answer = inputResponse(ctx.mcpReq.inputResponses, state.asked);
      if (answer.kind === 'elicit')
        (answer.action === 'accept' ? round.approved : round.declined).add(state.asked);
    }
    const result = await this.current.run(round, work);
    if (!round.pending) return result;
    const { key, message } = round.pending;
    return inputRequired({
      inputRequests: {
        [key]: inputRequired.elicit({
          mode: 'form',
          message,
          requestedSchema: { type: 'object', properties: {} },
        }),
      },
      requestState: await this.codec.mint({ call, approved: [...round.approved], asked: key }),
    });
  }

  /** Whether the call being run may ask its client (a 2026 client that declared elicitation). */
  canAsk(): boolean {
    return this.current.getStore()?.canAsk ?? false;
  }

  /**
   * The person's answer to `request` if a round settled it; otherwise no — and, where the client
   * can be asked, the round ends by asking it.
   */
  answer(request: ApprovalRequest): 'yes' | 'no' {
    const round = this.current.getStore();
    if (!round?.canAsk) return 'no';
    const key = `approve-${digest(`${request.toolName}\0${request.title}\0${request.detail}`)}`;
    if (round.approved.has(key)) return 'yes';
    if (!round.declined.has(key))
      round.pending ??= {
        key,
        message: `${request.title}\n\n${request.detail}\n\nAccept to run it once; decline to refuse.`,
      };
    return 'no';
  }
}

/** A 2026 client declares its capabilities on every request; an empty elicitation object means forms. */
function canElicit(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  const elicitation = capabilities?.elicitation;
  if (!elicitation) return false;
  return elicitation.form !== undefined || Object.keys(elicitation).length === 0;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}
