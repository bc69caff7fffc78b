/**
 * The extension host: runs each extension's setup and keeps what it contributed — tools in the
 * registry (with default policies; the dynamic tool sets of tool-set.ts, one per owner), commands
 * in the one command table, panel rows, and what each joins of the turn (`on`),
 * combined into the single `TurnPoints` the agent calls. Faces read commands, panel rows and
 * notices from here; createApp builds it; dispose releases every extension, newest first.
 */
import type { AgentEvent } from '../agent/events.js';
import type { PromptSection, RequestScope, StopScope, TurnPoints, TurnScope } from '../agent/turn-points.js';
import { coreCommands } from '../commands/builtin.js';
import { CommandTable, type SlashCommand } from '../commands/types.js';
import { ToolCallInterceptors } from '../tools/call-interceptors.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/types.js';
import { errorMessage } from '../util/errors.js';
import { orderExtensions } from './order.js';
import { createToolSet, type DynamicToolSet, type ToolSetDeps } from './tool-set.js';
import type {
  BeforeCompactHook,
  BeforeRequestHook,
  Extension,
  ExtensionSetup,
  MentionCompleter,
  PanelRow,
  StopHook,
  SubAgentScope,
} from './types.js';

export interface HostDeps {
  registry: ToolRegistry;
  policies: ToolSetDeps['policies'];
  /** The executors' hooks around each call (the tool runtime's); a set of its own when left out. */
  toolCalls?: ToolCallInterceptors;
}

export type NoticeListener = (message: string, kind: 'system' | 'error') => void;

export class ExtensionHost {
  readonly commands = new CommandTable();
  private readonly extensions: Extension[] = [];
  private readonly rows: Array<() => PanelRow | undefined> = [];
  private readonly sections: Array<(turn: TurnScope) => Promise<PromptSection | undefined>> = [];
  private readonly rewrites: Array<(input: string, turn: TurnScope) => Promise<string>> = [];
  private readonly beforeRequests: BeforeRequestHook[] = [];
  /** Per child run, its before-request hooks (those registered for sub-agents, in order). */
  private readonly subAgentRequests: Array<(child: SubAgentScope) => BeforeRequestHook> = [];
  private readonly eventListeners: Array<(event: AgentEvent) => void> = [];
  private readonly stops: StopHook[] = [];
  /** The executors' call hooks (shared with the tool runtime when it gave them). */
  private readonly toolCalls: ToolCallInterceptors;
  private readonly subAgentStops: StopHook[] = [];
  private readonly filters: Array<(tool: Tool) => boolean> = [];
  private readonly reports = new Map<string, () => unknown>();
  private readonly completers: MentionCompleter[] = [];
  private readonly changeListeners = new Set<() => void>();
  private readonly noticeListeners = new Set<NoticeListener>();
  /** Notices given before any face listened (during setup): handed to the first listener. */
  private readonly early: Array<[string, 'system' | 'error']> = [];
  private started = false;
  /** Owner → its dynamic tool set (one per owner, however often asked for). */
  private readonly toolSets = new Map<string, DynamicToolSet>();

  constructor(private readonly deps: HostDeps) {
    this.toolCalls = deps.toolCalls ?? new ToolCallInterceptors();
    const [help, exit] = coreCommands();
    this.commands.register(help!);
    // /exit is added once every extension is in, so /help lists it last.
    this.exitCommand = exit!;
  }

  private readonly exitCommand: SlashCommand;
  private readonly compactHooks: BeforeCompactHook[] = [];

  /** The turn points the agent calls, combining every extension's in registration order. */
  readonly turnPoints: TurnPoints = {
    promptSections: async (turn) => {
      const out: PromptSection[] = [];
      for (const section of this.sections) {
        const value = await section(turn);
        if (value) out.push(value);
      }
      return out;
    },
    prepareInput: async (input, turn) => {
      let text = input;
      for (const rewrite of this.rewrites) text = await rewrite(text, turn);
      return text;
    },
    beforeRequest: async (request) => {
      for (const hook of this.beforeRequests) await hook(request);
    },
    beforeStop: (stop) => combineStops(this.stops, stop),
    onEvent: (event) => {
      for (const listener of this.eventListeners) {
        try {
          listener(event);
        } catch (error) {
          this.notice(`extension failed on a turn event: ${errorMessage(error)}`, 'error');
        }
      }
    },
  };

  /**
   * The before-request hooks of one sub-agent run: the ones registered with `subAgents`, in
   * registration order, each with state of its own for this run where it keeps any.
   */
  subAgentBeforeRequest(child: SubAgentScope): (request: RequestScope) => Promise<void> {
    const hooks = this.subAgentRequests.map((make) => make(child));
    return async (request) => {
      for (const hook of hooks) await hook(request);
    };
  }

  /** The stop hooks of one sub-agent run (those registered with `subAgents`). */
  subAgentBeforeStop(agent: string): (stop: StopScope) => Promise<string | undefined> {
    return (stop) => combineStops(this.subAgentStops, { ...stop, subAgent: agent });
  }

  /**
   * Adds extensions in their declared order (`after` / `before`; else as given): hooks run in it.
   * Throws before any setup on a name not added or a cycle.
   */
  async add(...extensions: Extension[]): Promise<void> {
    for (const extension of orderExtensions(this.names, extensions)) {
      this.extensions.push(extension);
      await extension.setup(this.setupFor());
    }
  }

  /** Every extension is in: the command table is complete. */
  seal(): void {
    if (!this.commands.get(this.exitCommand.name)) this.commands.register(this.exitCommand);
  }

  /**
   * The tool set `owner` changes at run time (ExtensionSetup.tools.set), for a part built before
   * its extension's setup.
   */
  toolSet(owner: string): DynamicToolSet {
    let set = this.toolSets.get(owner);
    if (!set) {
      set = createToolSet(this.deps, owner);
      this.toolSets.set(owner, set);
    }
    return set;
  }

  get names(): string[] {
    return this.extensions.map((extension) => extension.name);
  }

  panelRows(): PanelRow[] {
    const rows: PanelRow[] = [];
    for (const row of this.rows) {
      const value = row();
      if (value) rows.push(value);
    }
    return rows.sort((a, b) => a.order - b.order);
  }

  /** The extensions' fields of a print-mode JSON result, read now. */
  reportFields(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of this.reports) out[key] = value();
    return out;
  }

  /** Every extension's completions for an `@` word, in registration order, each once (at most 100). */
  async complete(word: string): Promise<string[]> {
    const all = await Promise.all(this.completers.map((complete) => complete(word).catch(() => [])));
    return [...new Set(all.flat())].slice(0, 100);
  }

  /** The face is up: extensions start their background work (once). */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const extension of this.extensions) extension.start?.();
  }

  /** Starts, then waits until every extension can serve commands. */
  async ready(signal: AbortSignal): Promise<void> {
    this.start();
    await Promise.all(this.extensions.map((extension) => extension.ready?.(signal)));
  }

  /** Starts, then waits until every extension's start-up is over (see Extension.settled). */
  async settled(signal: AbortSignal): Promise<void> {
    this.start();
    await Promise.all(
      this.extensions.map((extension) => (extension.settled ?? extension.ready)?.call(extension, signal)),
    );
  }

  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  onNotice(listener: NoticeListener): () => void {
    this.noticeListeners.add(listener);
    for (const [message, kind] of this.early.splice(0)) listener(message, kind);
    return () => this.noticeListeners.delete(listener);
  }

  notice(message: string, kind: 'system' | 'error' = 'system'): void {
    if (this.noticeListeners.size === 0) {
      this.early.push([message, kind]);
      return;
    }
    for (const listener of this.noticeListeners) listener(message, kind);
  }

  /** Releases every extension, newest first; one failing does not stop the rest. */
  async dispose(): Promise<void> {
    for (const extension of [...this.extensions].reverse()) {
      try {
        await extension.dispose?.();
      } catch (error) {
        this.notice(`${extension.name}: ${errorMessage(error)}`, 'error');
      }
    }
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener();
  }

  private setupFor(): ExtensionSetup {
    const { registry, policies } = this.deps;
    const toolCalls = this.toolCalls;
    return {
      tools: {
        add: (tool, policy) => {
          policies.ensureToolPolicy(tool.name, policy);
          registry.register(tool);
        },
        remove: (name) => {
          registry.unregister(name);
        },
        set: (owner) => this.toolSet(owner),
      },
      commands: {
        add: (command) => {
          this.commands.register(command);
          this.changed();
        },
        remove: (name) => {
          this.commands.unregister(name);
          this.changed();
        },
        has: (name) => this.commands.get(name) !== undefined,
      },
      panel: (row) => {
        this.rows.push(row);
      },
      on: {
        prompt: (section) => {
          this.sections.push(section);
        },
        input: (rewrite) => {
          this.rewrites.push(rewrite);
        },
        beforeRequest: (hook, options) => {
          this.beforeRequests.push(hook);
          const child = options?.subAgents;
          if (child) this.subAgentRequests.push(child === 'same' ? () => hook : child);
        },
        stop: (hook, options) => {
          this.stops.push(hook);
          if (options?.subAgents) this.subAgentStops.push(hook);
        },
        toolCall: (hook) => {
          toolCalls.add(hook);
        },
        event: (listener) => {
          this.eventListeners.push(listener);
        },
        toolFilter: (filter) => {
          this.filters.push(filter);
          const filters = [...this.filters];
          registry.setVisibleFilter((tool) => filters.every((visible) => visible(tool)));
        },
        toolDeferral: (defer, last) => {
          registry.setDeferFilter(defer, last);
        },
        beforeCompact: (hook) => {
          this.compactHooks.push(hook);
        },
      },
      completion: (complete) => {
        this.completers.push(complete);
      },
      report: (key, value) => {
        this.reports.set(key, value);
      },
      changed: () => this.changed(),
      notice: (message, kind) => this.notice(message, kind ?? 'system'),
      compacting: async (trigger, focus, signal) => {
        for (const hook of this.compactHooks) await hook(trigger, focus, signal).catch(() => undefined);
      },
    };
  }
}

/** Every stop hook at once; their texts joined, or undefined when none wants the turn to go on. */
async function combineStops(
  hooks: readonly StopHook[],
  stop: StopScope & { subAgent?: string },
): Promise<string | undefined> {
  if (hooks.length === 0) return undefined;
  const texts = (await Promise.all(hooks.map((hook) => hook(stop)))).filter(
    (text): text is string => text !== undefined,
  );
  return texts.length > 0 ? texts.join('\n\n') : undefined;
}
