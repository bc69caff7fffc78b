/**
 * stream-json input (`--input-format stream-json`): JSON lines on stdin in Claude Code's shape —
 * user messages (`{"type":"user","message":{"role":"user","content":"…"}}`, content a string or
 * text blocks) queued as turns, and `control_response` lines answering the `can_use_tool` control
 * requests that `StreamJsonApprover` writes when a tool needs a question. A line that is not one of
 * these gets an error line and the run goes on. The run ends when stdin closes.
 */
import type { ApprovalAnswer, ApprovalRequest, Approver, PolicyReview } from '../permissions/types.js';
import { errorMessage } from '../util/errors.js';
import type { MessageSink } from './output.js';

/** A line longer than this is refused (and skipped to its end) instead of growing without bound. */
export const MAX_INPUT_LINE = 8 * 1024 * 1024;

export type InputLine =
  | { kind: 'user'; text: string }
  | { kind: 'control_response'; requestId: string; allow: boolean; message?: string; updatedInput?: unknown }
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
  const shape =
    'a control_response is {"type":"control_response","response":{"subtype":"success","request_id":"…","response":{"behavior":"allow"|"deny"}}}';
  if (!isObject(response) || typeof response.request_id !== 'string')
    return { kind: 'invalid', message: shape };
  const requestId = response.request_id;
  if (response.subtype === 'error')
    return {
      kind: 'control_response',
      requestId,
      allow: false,
      message: typeof response.error === 'string' ? response.error : 'the client answered with an error',
    };
  const answer = response.response;
  if (
    response.subtype !== 'success' ||
    !isObject(answer) ||
    (answer.behavior !== 'allow' && answer.behavior !== 'deny')
  )
    return { kind: 'invalid', message: shape };
  return {
    kind: 'control_response',
    requestId,
    allow: answer.behavior === 'allow',
    ...(typeof answer.message === 'string' ? { message: answer.message } : {}),
    ...(answer.updatedInput !== undefined ? { updatedInput: answer.updatedInput } : {}),
  };
}

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

interface Pending {
  resolve: (answer: { allow: boolean; message?: string }) => void;
  input: unknown;
}

/**
 * Asks the program on the other end: a `control_request` line (`can_use_tool`), answered by the
 * `control_response` with its request id. Stdin closed, nobody can answer: refused.
 */
export class StreamJsonApprover implements Approver {
  private readonly pending = new Map<string, Pending>();
  /** Why the client said no, per tool, for the refusal the model reads (questions come one at a time). */
  private readonly denials = new Map<string, string>();
  private counter = 0;
  private closed = false;

  constructor(private readonly lines: MessageSink) {}

  async ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (this.closed) return 'no';
    const requestId = `req_${++this.counter}`;
    const input = request.input ?? {};
    const answer = await new Promise<{ allow: boolean; message?: string }>((resolve) => {
      this.pending.set(requestId, { resolve, input });
      const cancel = () => {
        this.pending.delete(requestId);
        resolve({ allow: false, message: 'cancelled' });
      };
      signal.addEventListener('abort', cancel, { once: true });
      this.lines.write({
        type: 'control_request',
        request_id: requestId,
        request: {
          subtype: 'can_use_tool',
          tool_name: request.toolName,
          input,
          ...(request.callId !== undefined ? { tool_use_id: request.callId } : {}),
          title: request.title,
          ...(request.protectedPaths ? { protected_paths: request.protectedPaths } : {}),
          ...(request.review ? { reason: request.review.reason } : {}),
        },
      });
    });
    if (answer.allow) return 'yes';
    this.denials.set(request.toolName, answer.message ?? '');
    return 'no';
  }

  /** A control_response line arrived; false when it answers nothing that is waiting. */
  answer(line: Extract<InputLine, { kind: 'control_response' }>): boolean {
    const waiting = this.pending.get(line.requestId);
    if (!waiting) return false;
    this.pending.delete(line.requestId);
    // The call runs with the arguments shown: a changed input cannot be applied, so it is a no.
    if (line.allow && line.updatedInput !== undefined && !sameJson(line.updatedInput, waiting.input)) {
      waiting.resolve({ allow: false, message: 'updatedInput is not supported: the call was not run' });
      return true;
    }
    waiting.resolve({ allow: line.allow, ...(line.message !== undefined ? { message: line.message } : {}) });
    return true;
  }

  /** Stdin closed: what waits is refused, and so is every later question. */
  close(): void {
    this.closed = true;
    for (const [id, waiting] of this.pending) {
      this.pending.delete(id);
      waiting.resolve({ allow: false, message: 'stdin closed before an answer' });
    }
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

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
