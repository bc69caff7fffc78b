/**
 * The one shape a feature plugs in through. An extension's `setup` registers what it contributes
 * — tools (with a default policy; a set that changes at run time, as MCP's), slash commands, side-panel rows and the points of the turn it joins (system
 * prompt sections, input rewriting, a before-request hook, a stop hook, turn events, a tool filter,
 * hooks around each tool call) — and
 * `dispose` releases what it holds. Built-in tools, AGENTS.md, MCP, sessions and compaction are
 * all extensions; `createApp` lists them, the faces read the host.
 */
import type { AgentEvent, CompactionReport } from '../agent/events.js';
import type { PromptSection, RequestScope, StopScope, TurnScope } from '../agent/turn-points.js';
import type { SlashCommand } from '../commands/types.js';
import type { ChatProvider } from '../providers/types.js';
import type { Policy } from '../tools/approval.js';
import type { ToolCallInterceptor } from '../tools/call-interceptors.js';
import type { Tool } from '../tools/types.js';
import type { DynamicToolSet } from './tool-set.js';

export type { DynamicToolSet, ToolPin } from './tool-set.js';

export type BeforeRequestHook = (request: RequestScope) => Promise<void>;

/** A compaction is about to run (automatic, on overflow or `/compact [focus]`). */
export type BeforeCompactHook = (
  trigger: CompactionReport['trigger'],
  focus: string | undefined,
  signal: AbortSignal,
) => Promise<void>;

/** A turn would end (`subAgent`: a sub-agent's run, by agent name); a text back makes it go on. */
export type StopHook = (stop: StopScope & { subAgent?: string }) => Promise<string | undefined>;
/** Completions for an `@` word (see ExtensionSetup.completion). */
export type MentionCompleter = (word: string) => Promise<string[]>;

/** What a sub-agent run's hooks may need to know of it. */
export interface SubAgentScope {
  /** The model the child talks to (its agent may name another than the main one). */
  provider: ChatProvider;
}

export interface BeforeRequestOptions {
  /**
   * Whether the hook also runs before each sub-agent's requests (`request.conversation` is then
   * the child's own): `'same'` for a hook without per-conversation state, a factory for one with
   * it (called once per child run, with the child's model). Left out: the main agent's requests only — right for a hook
   * that changes shared state from the conversation it sees, which must not see a child's.
   */
  subAgents?: 'same' | ((child: SubAgentScope) => BeforeRequestHook);
}

/** One line of the side panel: `label value`; rows are shown in `order`. */
export interface PanelRow {
  label: string;
  value: string;
  order: number;
}

/** Where the spec's panel rows go; a new feature picks a number between its neighbours. */
export const PANEL_ORDER = {
  model: 10,
  session: 20,
  root: 30,
  memory: 40,
  instructions: 50,
  skills: 60,
  mcp: 70,
  sandbox: 75,
  approvalMode: 77,
  context: 80,
  turn: 90,
  total: 100,
  todo: 110,
  shells: 120,
} as const;

/** Where the spec's prompt sections go, system and turn ones alike (the agent's own instructions are 0). */
export const PROMPT_ORDER = {
  extraRoots: 5,
  projectInstructions: 10,
  pluginContext: 15,
  skill: 20,
  memories: 30,
  todos: 40,
  hooks: 50,
  approvalMode: 55,
  deferredTools: 60,
} as const;

export interface ExtensionSetup {
  tools: {
    /** Registers `tool`; `policy` is its default (configured rules still win). */
    add(tool: Tool, policy: Policy): void;
    remove(name: string): void;
    /**
     * The tools `owner` adds, changes and removes while the agent runs (MCP servers connecting,
     * re-listing, skill servers starting and stopping): one set per owner.
     */
    set(owner: string): DynamicToolSet;
  };
  commands: {
    add(command: SlashCommand): void;
    remove(name: string): void;
    has(name: string): boolean;
  };
  /** A panel row computed on each render; undefined hides it. */
  panel(row: () => PanelRow | undefined): void;
  /**
   * The points of the turn an extension joins (agent/turn-points.ts): prompt sections, input,
   * before each request, the stop, each tool call, events, tool filter and deferral, compaction.
   * Not the lifecycle hooks a person configures (hooks/): that feature is one user of these.
   */
  on: {
    /**
     * Sections for this turn, asked for at its start: `system` ones (the default) are the system
     * prompt (re-sent every turn, never summarised; they must not change while the person changes
     * nothing, or the prompt cache is lost), `turn` ones the context of the turn's user message.
     */
    prompt(section: (turn: TurnScope) => Promise<PromptSection | undefined>): void;
    /** Rewrites the person's input before it enters the history (runs in registration order). */
    input(rewrite: (input: string, turn: TurnScope) => Promise<string>): void;
    /**
     * Runs before every model request (in registration order): wait for something, compact.
     * Sub-agents' requests only with `options.subAgents`.
     */
    beforeRequest(hook: BeforeRequestHook, options?: BeforeRequestOptions): void;
    /**
     * Runs when a turn would end with an answer (every hook, at once); a text back continues the
     * turn with it as the next user message (several: joined). Sub-agents' runs only with
     * `options.subAgents`.
     */
    stop(hook: StopHook, options?: { subAgents?: boolean }): void;
    /**
     * Around each tool call, next to the policy (main agent and sub-agents alike): `before` may
     * deny, ask or allow an asked call (never past a deny rule or a protected path), `after` may
     * add a note to the result. See tools/call-interceptors.ts.
     */
    toolCall(hook: ToolCallInterceptor): void;
    /** Hears every event of every turn. */
    event(listener: (event: AgentEvent) => void): void;
    /** Hides tools from the model; the executor refuses a hidden tool the model names anyway. */
    toolFilter(filter: (tool: Tool) => boolean): void;
    /**
     * Leaves visible tools out of each request while `defer` says so (tool search); unlike a
     * filter, a deferred tool still runs when the model names it. One deferral at a time. A tool
     * `last` ranks is sent after every other tool, in rank order (what was loaded later comes
     * later, so loading one keeps the tool list's prefix).
     */
    toolDeferral(defer: (tool: Tool) => boolean, last?: (tool: Tool) => number | undefined): void;
    /** Runs before each compaction (PreCompact hooks), in registration order; a failure does not stop it. */
    beforeCompact(hook: BeforeCompactHook): void;
  };
  /**
   * Offers completions for a word the person is typing that starts with `@` (a file, an MCP
   * resource): each a whole replacement for the word; a folder ends in `/` (completion goes on).
   */
  completion(complete: MentionCompleter): void;
  /** A field of print mode's JSON result (`"todos"`), read when the turn ends. */
  report(key: string, value: () => unknown): void;
  /** Panel rows or commands changed: the faces redraw. */
  changed(): void;
  /** A line for the person outside any turn's answer (a session could not be saved). */
  notice(message: string, kind?: 'system' | 'error'): void;
  /** The compaction extension says a compaction is about to run: every `beforeCompact` hook runs. */
  compacting: BeforeCompactHook;
}

export interface Extension {
  readonly name: string;
  setup(host: ExtensionSetup): void | Promise<void>;
  /** The face is up: start background work (MCP servers connect). */
  start?(): void;
  /** Resolves once the extension can serve commands (non-interactive faces wait for it). */
  ready?(signal: AbortSignal): Promise<void>;
  /**
   * Resolves once its background start-up is over entirely (a slow MCP server's prompt commands
   * exist); `ready` when absent. A non-interactive face waits for it before a command it does not know.
   */
  settled?(signal: AbortSignal): Promise<void>;
  dispose?(): Promise<void>;
  /**
   * Extensions whose setup (and so whose hooks) must come before this one's, by name: the host
   * orders by these, not by the list's order. A name not added, or a cycle, is an error at start-up.
   */
  readonly after?: readonly string[];
  /** Extensions whose setup and hooks must come after this one's (its hooks run first). */
  readonly before?: readonly string[];
}
