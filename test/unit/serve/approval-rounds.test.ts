/**
 * The rounds a 2026 client's approval takes (`mcp serve`): asked once, then answered by the retry
 * that carries the sealed state; an answer without the state this server sealed for this very
 * call counts for nothing (a client cannot pre-answer, nor move an answer to another call).
 */
import type { CallToolResult, InputRequiredResult, ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { ApprovalRounds } from '../../../src/serve/approval-rounds.js';

const rounds = new ApprovalRounds(60_000);
const request = { toolName: 'write', title: 'Write a.txt', detail: '+x', kind: 'diff' } as const;

/** A handler context as the SDK's seam hands it: the state already verified (or none). */
async function context(inputResponses?: Record<string, unknown>, state?: string): Promise<ServerContext> {
  const ctx = {
    mcpReq: {
      envelope: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } },
      inputResponses,
      requestState: () => verified,
    },
  } as unknown as ServerContext;
  const verified = state ? await rounds.verify(state, ctx) : undefined;
  return ctx;
}

/** One round of a call of `write` whose executor asks once and runs on yes. */
async function round(args: Record<string, unknown>, ctx: ServerContext) {
  let ran = false;
  const result = await rounds.run('write', args, ctx, async (): Promise<CallToolResult> => {
    ran = rounds.answer(request) === 'yes';
    return { content: [{ type: 'text', text: ran ? 'done' : 'refused' }] };
  });
  return { ran, result: result as CallToolResult & Partial<InputRequiredResult> };
}

describe('approval rounds for a 2026 client', () => {
  it('asks, then runs on the accepted answer carried with the sealed state', async () => {
    const first = await round({ path: 'a.txt' }, await context());
    expect(first.ran).toBe(false);
    expect(first.result.resultType).toBe('input_required');
    const [key] = Object.keys(first.result.inputRequests ?? {});
    const state = first.result.requestState!;

    // The answer alone, without the state: asked again, nothing runs.
    const forged = await round({ path: 'a.txt' }, await context({ [key!]: { action: 'accept' } }));
    expect(forged.ran).toBe(false);
    expect(forged.result.resultType).toBe('input_required');

    // The state of this call moved to another call: not honoured.
    const moved = await round({ path: 'b.txt' }, await context({ [key!]: { action: 'accept' } }, state));
    expect(moved.ran).toBe(false);

    const declined = await round({ path: 'a.txt' }, await context({ [key!]: { action: 'decline' } }, state));
    expect(declined).toMatchObject({ ran: false, result: { content: [{ text: 'refused' }] } });
    expect(declined.result.resultType).toBeUndefined();

    const accepted = await round({ path: 'a.txt' }, await context({ [key!]: { action: 'accept' } }, state));
    expect(accepted).toMatchObject({ ran: true, result: { content: [{ text: 'done' }] } });
  });

  it('a state this process did not seal is refused', async () => {
    const ctx = await context();
    await expect(rounds.verify('v1.e30.AAAA', ctx)).rejects.toThrow();
    await expect(
      new ApprovalRounds(60_000).verify((await round({}, ctx)).result.requestState!, ctx),
    ).rejects.toThrow();
  });
});
