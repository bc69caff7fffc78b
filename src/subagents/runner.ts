/**
 * Runs one sub-agent: a fresh conversation (it never sees the parent's history) over the parent's
 * registry narrowed to the agent's tools, an executor with the same permission layer (its
 * questions labelled with the agent's name), its own round cap, a timeout, and an abort linked to
 * the parent's turn. Whatever happens — an answer, the round cap, a failure, a timeout, a cancel —
 * it resolves to a `ChildRun` saying so: the parent never waits forever and never loses an answer.
 */
import { randomBytes } from 'node:crypto';
import { Agent } from '../agent/agent.js';
import { Conversation } from '../agent/conversation.js';
import { addUsage, emptyUsage } from '../agent/events.js';
import type { TurnPoints } from '../agent/turn-points.js';
import type { Usage } from '../providers/messages.js';
import { cutCause } from '../providers/stop-reason.js';
import type { ChatProvider } from '../providers/types.js';
import type { Approver } from '../tools/approval.js';
import type { ToolExecutor } from '../tools/executor.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Tool, ToolCallOutcome } from '../tools/types.js';
import { errorMessage } from '../util/errors.js';
import type { AgentDefinition } from './definitions.js';
import { ToolView } from './tool-view.js';

/** `cut`: its last reply was cut by the provider (output limit, refusal, filter): `text` is partial. */
export type ChildStatus = 'completed' | 'max_rounds' | 'cut' | 'failed' | 'timed_out' | 'cancelled';

/** One sub-agent run, as the parent's result, print-mode JSON and the transcript link report it. */
export interface ChildRun {
  id: string;
  agent: string;
  task: string;
  status: ChildStatus;
  /** The final answer, or what went wrong. */
  text: string;
  /** Why a cut answer is cut (`the model reached its output token limit (stop_reason: max_tokens)`). */
  cut?: string;
  /** The provider's reason the child's last reply ended (end_turn, max_tokens …), when one came. */
  stopReason?: string;
  rounds: number;
  usage: Usage;
  toolCalls: ToolCallOutcome[];
  /** The saved transcript, when the session could write it. */
  transcript?: string;
}

/** Where a child's transcript goes: `file` for the link; `record` follows the conversation until stopped. */
export interface TranscriptSink {
  file: string;
  record(conversation: Conversation): () => void;
}

export interface RunnerDeps {
  registry: ToolRegistry;
  /** An executor over `registry` with the parent's policies, redaction and context. */
  executorFor(registry: ToolRegistry, approver: Approver): ToolExecutor;
  approver: Approver;
  providerFor(model: string | undefined): ChatProvider;
  root: string;
  isReadOnlyMcp(name: string): boolean;
  /**
   * The before-request hooks of one child run (the extensions' that apply to sub-agents: MCP
   * wait, compaction of the child's own conversation, skill servers); none when left out.
   */
  beforeRequestFor?(provider: ChatProvider): TurnPoints['beforeRequest'];
  /** The stop hooks of one child run (SubagentStop), by agent name; none when left out. */
  beforeStopFor?(agent: string): TurnPoints['beforeStop'];
  transcriptFor?(runId: string): TranscriptSink | undefined;
  /** Saved runs of the current session, and one run's transcript as text (`/agents runs|log`). */
  transcripts?: { list(): Promise<string[]>; show(runId: string): Promise<string> };
}

export interface RunRequest {
  id: string;
  definition: AgentDefinition;
  task: string;
  /** The parent turn's signal: cancelling it cancels the child. */
  signal: AbortSignal;
  timeoutMs: number;
  /** Tools only this child has (a deeper delegate_task). */
  own?: Tool[];
  /** The child's activity: rounds so far and the tool it is running. */
  onActivity?(rounds: number, tool: string | undefined): void;
}

/** How a request is recognised as a sub-agent's (the fake model's tests read this line). */
export function subAgentIntro(name: string): string {
  return (
    `You are a GeekAgent sub-agent named "${name}", working on one task the main agent delegated to you. ` +
    'You do not see its conversation: everything you know is in the task. Your final answer is returned ' +
    'to the main agent as the result, so make it complete and self-contained.'
  );
}

export async function runChild(deps: RunnerDeps, request: RunRequest): Promise<ChildRun> {
  const { definition } = request;
  const view = new ToolView(deps.registry, {
    patterns: definition.tools,
    isReadOnlyMcp: deps.isReadOnlyMcp,
    own: request.own,
  });
  const conversation = new Conversation();
  const sink = deps.transcriptFor?.(request.id);
  let stopRecording: (() => void) | undefined;
  try {
    stopRecording = sink?.record(conversation);
  } catch {
    // A transcript that cannot be written must not stop the work.
  }
  let rounds = 0;
  let usage = emptyUsage();
  const toolCalls: ToolCallOutcome[] = [];
  const provider = deps.providerFor(definition.model);
  const cacheKey = `${request.id}.${randomBytes(6).toString('hex')}`;
  const turnPoints: TurnPoints = {
    promptSections: async () => [
      {
        order: 1,
        text: [subAgentIntro(definition.name), definition.instructions].filter((t) => t !== '').join('\n\n'),
      },
    ],
    prepareInput: async (input) => input,
    beforeRequest: deps.beforeRequestFor?.(provider) ?? (async () => undefined),
    beforeStop: deps.beforeStopFor?.(definition.name),
    onEvent: (event) => {
      if (event.type === 'round_start') {
        rounds = event.round;
        request.onActivity?.(rounds, undefined);
      } else if (event.type === 'tool_start') request.onActivity?.(rounds, event.name);
      else if (event.type === 'tool_end') {
        toolCalls.push(event.outcome);
        request.onActivity?.(rounds, undefined);
      } else if (event.type === 'usage') usage = addUsage(usage, event.round);
    },
  };
  const agent = new Agent({
    provider,
    registry: view,
    executor: deps.executorFor(view, labelled(deps.approver, definition.name)),
    conversation,
    root: deps.root,
    turnPoints,
    maxRounds: definition.maxRounds,
    // Its own prompt cache: its prefix shares nothing with the main conversation's. The run id is
    // short (a counter and 4 hex digits); the random tail keeps runs of other sessions apart.
    cacheKey: () => cacheKey,
  });
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = AbortSignal.any([request.signal, timeout]);
  const base = { id: request.id, agent: definition.name, task: request.task };
  const done = (status: ChildStatus, text: string): ChildRun => ({
    ...base,
    status,
    text,
    rounds,
    usage,
    toolCalls,
    ...(sink ? { transcript: sink.file } : {}),
  });
  try {
    const result = await agent.runTurn(request.task, { signal });
    const run = done(result.status, result.text);
    if (result.stop) run.stopReason = result.stop.reason;
    if (result.status === 'cut' && result.stop) run.cut = cutCause(result.stop);
    return run;
  } catch (error) {
    if (request.signal.aborted) return done('cancelled', 'cancelled with the parent turn');
    if (timeout.aborted)
      return done('timed_out', `timed out after ${Math.round(request.timeoutMs / 1000)} s without an answer`);
    return done('failed', errorMessage(error));
  } finally {
    stopRecording?.();
  }
}

/** The same person is asked, told which agent wants it. */
function labelled(approver: Approver, name: string): Approver {
  return {
    ask: (request, signal) => approver.ask({ ...request, title: `[agent ${name}] ${request.title}` }, signal),
    refusalMessage: (toolName, review, protectedPaths) =>
      approver.refusalMessage(toolName, review, protectedPaths),
  };
}
