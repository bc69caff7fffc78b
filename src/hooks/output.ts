/**
 * What one hook's run says, in Claude Code's contract: exit 0 with optional JSON on stdout (the
 * current `hookSpecificOutput` shape and the older top-level `decision`), exit 2 blocks with its
 * stderr as the reason, any other ending is reported and otherwise ignored.
 */
import type { HookEvent } from '../config/hook-settings.js';
import type { HookRun } from './run-command.js';

export interface HookReply {
  /** Exit 2 or `decision: "block"`/`"deny"`: the reason (may be empty). */
  block?: string;
  /** `continue: false`: stop here (`stopReason`); blocks a call or prompt, lets a turn end. */
  halt?: string;
  /** PreToolUse: `permissionDecision` (or the older `decision: "approve"`). */
  permission?: 'allow' | 'deny' | 'ask';
  permissionReason?: string;
  /** `additionalContext` (plain stdout, too, for UserPromptSubmit and SessionStart). */
  context?: string;
  /** `systemMessage`: shown to the person. */
  message?: string;
  /** Why the run is worth a notice: a failed start, a timeout, another exit code, bad JSON. */
  problem?: string;
}

/** Events whose plain (non-JSON) stdout is context for the model, as in Claude Code. */
const PLAIN_STDOUT_IS_CONTEXT: ReadonlySet<HookEvent> = new Set(['UserPromptSubmit', 'SessionStart']);

export function readReply(event: HookEvent, run: HookRun, timeoutSeconds: number): HookReply {
  if (run.outcome === 'failed') return { problem: `could not start: ${run.error ?? 'unknown error'}` };
  if (run.outcome === 'timed_out') return { problem: `timed out after ${timeoutSeconds} s and was stopped` };
  if (run.outcome === 'cancelled') return {};
  if (run.code === 2) return { block: run.stderr.trim() };
  if (run.code !== 0) {
    const first = run.stderr.trim().split('\n')[0] ?? '';
    return { problem: `exited with code ${run.code}${first ? `: ${first}` : ''}` };
  }
  const text = run.stdout.trim();
  if (!text.startsWith('{'))
    return text !== '' && PLAIN_STDOUT_IS_CONTEXT.has(event) ? { context: text } : {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: 'printed output that starts with "{" but is not valid JSON (ignored)' };
  }
  if (!isRecord(json)) return {};
  return fromJson(json);
}

function fromJson(json: Record<string, unknown>): HookReply {
  const reply: HookReply = {};
  const specific = isRecord(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  const reason = str(json.reason);
  const decision = str(json.decision);
  // The older shape: `approve` / `block` at the top level.
  if (decision === 'block' || decision === 'deny') reply.block = reason ?? '';
  if (decision === 'approve' || decision === 'allow') {
    reply.permission = 'allow';
    reply.permissionReason = reason;
  }
  const permission = str(specific.permissionDecision);
  if (permission === 'allow' || permission === 'deny' || permission === 'ask') {
    reply.permission = permission;
    reply.permissionReason = str(specific.permissionDecisionReason) ?? reason;
  }
  const context = str(specific.additionalContext) ?? str(json.additionalContext);
  if (context) reply.context = context;
  const message = str(json.systemMessage);
  if (message) reply.message = message;
  if (json.continue === false) reply.halt = str(json.stopReason) ?? '';
  return reply;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
