/**
 * stream-json input (`--input-format stream-json`): JSON lines on stdin in Claude Code's shape —
 * user messages (`{"type":"user","message":{"role":"user","content":"…"}}`, content a string or
 * text blocks) queued as turns, and `control_response` lines answering the control requests of
 * `stream-json-control.ts` (here `StreamJsonApprover`'s `can_use_tool`, when a tool needs a question). A line that is not one of
 * these gets an error line and the run goes on. The run ends when stdin closes.
 */
import type { ApprovalAnswer, ApprovalRequest, Approver, PolicyReview } from '../permissions/types.js';
import { errorMessage } from '../util/errors.js';
import type { ControlChannel, ControlOutcome, ControlReply } from './control.js';

/** A line longer than this is refused (and skipped to its end) instead of growing without bound. */
export const MAX_INPUT_LINE = 8 * 1024 * 1024;

export type InputLine =
  | { kind: 'user'; text: string }
  | { kind: 'control_response'; requestId: string; reply: ControlReply }
  | { kind: 'invalid'; message: string };

/** One line of input, understood; undefined for a blank line. */
export function parseInputLine(line: string): InputLine | undefined {
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { kind: 'invalid', message: `not JSON: ${errorMessage(error)}` };
  }
  if (!isObject(value)) return { kind: 'invalid', message: 'a line must be a JSON object' };
  if (value.type === 'user') return userLine(value);
  if (value.type === 'control_response') return controlResponse(value);
  return {
    kind: 'invalid',
    message: `unknown line type ${JSON.stringify(value.type)}: send "user" or "control_response"`,
  };
}

function userLine(value: Record<string, unknown>): InputLine {
  const message = value.message;
  const shape = 'a user line is {"type":"user","message":{"role":"user","content":"…"}}';
  if (!isObject(message) || message.role !== 'user') return { kind: 'invalid', message: shape };
  const content = message.content;
  if (typeof content === 'string') return { kind: 'user', text: content };
  if (!Array.isArray(content))
    return { kind: 'invalid', message: `${shape} (content a string or text blocks)` };
  const texts: string[] = [];
  for (const block of content) {
    if (!isObject(block) || block.type !== 'text' || typeof block.text !== 'string')
      return {
        kind: 'invalid',
        message: 'content blocks must be {"type":"text","text":"…"} (images and tool results are not taken)',
      };
    texts.push(block.text);
  }
  return { kind: 'user', text: texts.join('\n\n') };
}

function controlResponse(value: Record<string, unknown>): InputLine {
  const response = value.response;
  if (!isObject(response) || typeof response.request_id !== 'string')
    return { kind: 'invalid', message: CONTROL_SHAPE };
  const requestId = response.request_id;
  if (response.subtype === 'error')
    return {
      kind: 'control_response',
      requestId,
      reply: {
        subtype: 'error',
        message: typeof response.error === 'string' ? response.error : 'the client answered with an error',
      },
    };
  if (response.subtype !== 'success') return { kind: 'invalid', message: CONTROL_SHAPE };
  // What the answer holds is the asker's to read (an approval's behavior, a form's action).
  return { kind: 'control_response', requestId, reply: { subtype: 'success', response: response.response } };
}

const CONTROL_SHAPE =
  'a control_response is {"type":"control_response","response":{"subtype":"success","request_id":"…","response":{…}}}';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Splits a byte stream into lines, each at most MAX_INPUT_LINE bytes (a longer one is reported). */
export async function* inputLines(
  stream: NodeJS.ReadableStream,
  tooLong: (bytes: number) => void,
): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  let size = 0;
  let skipping = false;
  for await (const raw of stream) {
    let chunk = typeof raw === 'string' ? Buffer.from(raw) : (raw as Buffer);
    for (let end = chunk.indexOf(0x0a); ; end = chunk.indexOf(0x0a)) {
      const part = end < 0 ? chunk : chunk.subarray(0, end);
      if (!skipping) {
        size += part.length;
        if (size > MAX_INPUT_LINE) {
          tooLong(size);
          skipping = true;
          pending = [];
        } else pending.push(part);
      }
      if (end < 0) break;
      if (!skipping) yield Buffer.concat(pending).toString('utf8');
      pending = [];
      size = 0;
      skipping = false;
      chunk = chunk.subarray(end + 1);
    }
  }
  if (!skipping && size > 0) yield Buffer.concat(pending).toString('utf8');
}

/**
 * Asks the program on the other end: a `can_use_tool` control request over the channel, answered
 * `{"behavior":"allow"|"deny"}` (an error answer is a deny). Stdin closed, nobody can answer: refused.
 */
export class StreamJsonApprover implements Approver {
  /** Why the client said no, per tool, for the refusal the model reads (questions come one at a time). */
  private readonly denials = new Map<string, string>();

  constructor(private readonly channel: ControlChannel) {}

  async ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    const input = request.input ?? {};
    const outcome = await this.channel.request(
      {
        subtype: 'can_use_tool',
        tool_name: request.toolName,
        input,
        ...(request.callId !== undefined ? { tool_use_id: request.callId } : {}),
        title: request.title,
        ...(request.protectedPaths ? { protected_paths: request.protectedPaths } : {}),
        ...(request.review ? { reason: request.review.reason } : {}),
      },
      signal,
      // A success without a behavior is reported and the question stays open, as before.
      (reply) => (reply.subtype === 'success' && !approval(reply.response) ? APPROVAL_SHAPE : undefined),
    );
    const answer = approvalOf(outcome, input);
    if (answer.allow) return 'yes';
    this.denials.set(request.toolName, answer.message ?? '');
    return 'no';
  }

  refusalMessage(toolName: string, review?: PolicyReview, protectedPaths?: string[]): string {
    const why = this.denials.get(toolName);
    this.denials.delete(toolName);
    const base =
      protectedPaths && protectedPaths.length > 0
        ? `protected path: ${protectedPaths.join(', ')}: refused by the stream-json client`
        : (review?.refusal ?? `refused by the stream-json client (or pass --allow ${toolName})`);
    return why ? `${base}: ${why}` : base;
  }
}

const APPROVAL_SHAPE =
  'a can_use_tool answer is {"type":"control_response","response":{"subtype":"success","request_id":"…","response":{"behavior":"allow"|"deny"}}}';

interface Approval {
  behavior: 'allow' | 'deny';
  message?: unknown;
  updatedInput?: unknown;
}

function approval(response: unknown): Approval | undefined {
  return isObject(response) && (response.behavior === 'allow' || response.behavior === 'deny')
    ? (response as unknown as Approval)
    : undefined;
}

function approvalOf(outcome: ControlOutcome, input: unknown): { allow: boolean; message?: string } {
  if (outcome.kind === 'closed') return { allow: false, message: 'stdin closed before an answer' };
  if (outcome.kind === 'withdrawn') return { allow: false, message: 'cancelled' };
  if (outcome.reply.subtype === 'error') return { allow: false, message: outcome.reply.message };
  const answer = approval(outcome.reply.response);
  if (!answer) return { allow: false, message: 'unreadable answer' };
  // The call runs with the arguments shown: a changed input cannot be applied, so it is a no.
  if (
    answer.behavior === 'allow' &&
    answer.updatedInput !== undefined &&
    !sameJson(answer.updatedInput, input)
  )
    return { allow: false, message: 'updatedInput is not supported: the call was not run' };
  return {
    allow: answer.behavior === 'allow',
    ...(typeof answer.message === 'string' ? { message: answer.message } : {}),
  };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
