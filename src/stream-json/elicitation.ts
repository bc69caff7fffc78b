/**
 * stream-json input's answer to an MCP server's elicitation (a 2025 `elicitation/create` and a
 * 2026 `input_required` round alike): Claude Code's `elicitation` control request to the
 * controlling program, whose `{"action":"accept"|"decline"|"cancel","content":{…}}` goes back to
 * the server. Only a clear answer counts: an error answer, an unreadable one, accepted content the
 * form does not allow, a withdrawn request or closed stdin are a cancel (never a made-up decline),
 * each with a note saying why.
 */
import type { ElicitationAnswer, ElicitationHandler, ElicitationRequest } from '../mcp/client-features.js';
import { checkContent } from '../mcp/elicitation-form.js';
import type { ControlChannel, ControlOutcome } from './control.js';

export class StreamJsonElicitor implements ElicitationHandler {
  constructor(
    private readonly channel: ControlChannel,
    /** One line for stderr (escaped by the writer). */
    private readonly note: (line: string) => void,
  ) {}

  async elicit(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
    const outcome = await this.channel.request(
      {
        subtype: 'elicitation',
        mcp_server_name: request.server,
        message: request.message,
        mode: 'form',
        requested_schema: request.schema,
      },
      signal,
    );
    const answer = answerOf(request, outcome);
    if ('why' in answer) {
      this.note(`MCP server ${request.server} asked for input; cancelled: ${answer.why}`);
      return { action: 'cancel' };
    }
    return answer;
  }
}

function answerOf(request: ElicitationRequest, outcome: ControlOutcome): ElicitationAnswer | { why: string } {
  if (outcome.kind === 'closed') return { why: 'stdin closed before an answer' };
  if (outcome.kind === 'withdrawn') return { action: 'cancel' };
  const { reply } = outcome;
  if (reply.subtype === 'error') return { why: `the client answered with an error: ${reply.message}` };
  const response = reply.response;
  const action =
    typeof response === 'object' && response !== null ? (response as { action?: unknown }).action : undefined;
  if (action === 'decline' || action === 'cancel') return { action };
  if (action !== 'accept')
    return { why: 'unreadable answer (the response needs "action": "accept", "decline" or "cancel")' };
  const checked = checkContent(request, (response as { content?: unknown }).content ?? {});
  if ('error' in checked) return { why: `the accepted content does not fit the form: ${checked.error}` };
  return { action: 'accept', content: checked.content };
}
