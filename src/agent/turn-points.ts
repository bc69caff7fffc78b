/**
 * The turn's extension points: what a feature may change about a turn without the turn knowing the
 * feature (extensions/ aggregates every extension's contributions into one `TurnPoints`). Not the
 * lifecycle hooks a person configures (hooks/): those are one feature that uses these points. The
 * loop calls them in this order: promptSections (system prompt and turn context) and prepareInput
 * once per turn, beforeRequest before every model request, beforeStop when an answer would end the
 * turn, onEvent for everything the turn reports.
 */
import type { UserImage } from '../providers/messages.js';
import type { Conversation } from './conversation.js';
import type { AgentEvent } from './events.js';

/**
 * A piece of what the model is told; lower `order` comes first (the agent's own instructions are 0).
 * `system` (the default) is for what stays the same turn after turn (project instructions, active
 * skills): the system prompt must stay byte-identical through a session, or the provider's prompt
 * cache is lost for the whole history. `turn` is for what changes from turn to turn (recalled
 * memory, the todo list): it goes into that turn's user message as its `context`, where it then
 * stays, byte-identical, in every later request.
 */
export interface PromptSection {
  order: number;
  text: string;
  placement?: 'system' | 'turn';
}

export interface TurnScope {
  /** The person's input as typed (before prepareInput). */
  input: string;
  /**
   * Whether the person typed it (the input line, `-p`, stdin) rather than a command supplied it
   * (an MCP prompt's text, `/init`) or a model wrote it (a sub-agent's task). Only the person's own
   * words may grant anything (a skill's pre-approvals). Left out: not the person's.
   */
  byPerson?: boolean;
  signal: AbortSignal;
  /** A line for the person that is not part of the answer (`attached @demo:…`). */
  notify(message: string): void;
  /** Something is being waited for (MCP servers still starting): a `waiting` line, not a notice. */
  waiting?(message: string): void;
  /**
   * Attaches an image to the turn's user message (an input rewrite that found `@shot.png`); the
   * caller has checked the model takes it. Absent where a turn cannot carry images.
   */
  attachImage?(image: UserImage): void;
  /**
   * Images the face handed over with the input (an editor's prompt), not yet checked: the feature
   * that attaches images checks each against the model (see attachImage) or says why not.
   */
  images?: readonly UserImage[];
}

export interface RequestScope {
  signal: AbortSignal;
  conversation: Conversation;
  /** Id of the current turn's first message: it and what follows are never summarised. */
  turnStart: string | undefined;
  /** What the request would cost if sent now, in tokens: system prompt, tools and history. */
  estimateTokens(): number;
  /** Its size in characters (what the token estimate is measured against). */
  requestChars(): number;
  /** 'auto' before each request; 'overflow' when the provider just refused it as too long. */
  trigger: 'auto' | 'overflow';
  /** Something is being waited for (MCP servers still starting). */
  waiting(message: string): void;
  emit(event: AgentEvent): void;
}

/** A turn about to end with an answer (no tool calls). */
export interface StopScope {
  answer: string;
  signal: AbortSignal;
  /** This turn already went on once because a stop hook said so (no endless loop). */
  continued: boolean;
}

export interface TurnPoints {
  promptSections(turn: TurnScope): Promise<PromptSection[]>;
  prepareInput(input: string, turn: TurnScope): Promise<string>;
  beforeRequest(request: RequestScope): Promise<void>;
  /**
   * The turn would end: a text back makes it go on, with that text as the next user message
   * (the rounds cap still holds). Left out: it ends.
   */
  beforeStop?(stop: StopScope): Promise<string | undefined>;
  onEvent(event: AgentEvent): void;
}

export const NO_TURN_POINTS: TurnPoints = {
  promptSections: async () => [],
  prepareInput: async (input) => input,
  beforeRequest: async () => undefined,
  onEvent: () => undefined,
};
