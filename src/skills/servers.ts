/**
 * The MCP servers of the active skills: each skill's run exactly while it is active (started in
 * the run's one MCP manager by `app/create-mcp.ts`), and a skill's come up again only once its
 * previous ones are down, so the same server names never run twice at once.
 */
import { errorMessage } from '../util/errors.js';
import { raceAbort } from '../util/race-abort.js';
import { visibleLine } from '../util/terminal-text.js';
import type { Skill } from './discover.js';

/** The running servers of one active skill's `mcp.json`. */
export interface SkillServersHandle {
  whenSettled(): Promise<void>;
  toolNames(): string[];
  stop(): Promise<void>;
}

/** What the skills use of the run's start-up grace (mcp/start-grace.ts, the MCP extension's). */
export interface StartupGrace {
  /** Before a model request (the first one fixes which servers it names as still connecting). */
  wait(signal: AbortSignal): Promise<void>;
  /** The same wait for commands (stream-json's init line, print mode's `/mcp`). */
  over(signal: AbortSignal): Promise<void>;
}

export type StartSkillServers = (
  skill: Skill & { mcpFile: string; source: 'project' | 'user' },
) => Promise<SkillServersHandle>;

export class SkillServers {
  /** Skill name → its servers, started while it is active. */
  private readonly running = new Map<string, Promise<SkillServersHandle | undefined>>();
  private readonly handles = new Map<string, SkillServersHandle>();
  /** Skill name → its servers stopping. */
  private readonly stopped = new Map<string, Promise<void>>();

  constructor(
    private readonly start: StartSkillServers | undefined,
    private readonly notice: (message: string) => void,
  ) {}

  /** Servers run for exactly these skills (those that declare some); resolves once the others stopped. */
  async sync(wanted: readonly Skill[]): Promise<void> {
    const names = new Set(wanted.filter((skill) => skill.mcpFile).map((skill) => skill.name));
    const stopping: Array<Promise<void>> = [];
    for (const [name, started] of this.running) {
      if (names.has(name)) continue;
      this.running.delete(name);
      this.handles.delete(name);
      const stop = started.then((handle) => handle?.stop());
      this.stopped.set(name, stop);
      stopping.push(stop);
    }
    const start = this.start;
    for (const skill of wanted) {
      // A server's skill (server-skills.ts) has no mcp.json of its own.
      if (!skill.mcpFile || skill.source === 'server' || !start || this.running.has(skill.name)) continue;
      const file = skill.mcpFile;
      const source = skill.source;
      const down = this.stopped.get(skill.name) ?? Promise.resolve();
      this.running.set(
        skill.name,
        down
          .then(() => start({ ...skill, mcpFile: file, source }))
          .then(
            (handle) => {
              if (this.running.has(skill.name)) this.handles.set(skill.name, handle);
              return handle;
            },
            (error: unknown) => {
              this.notice(`skill ${skill.name}: ${visibleLine(errorMessage(error))}`);
              return undefined;
            },
          ),
      );
    }
    await Promise.all(stopping);
  }

  /**
   * Resolves once every running skill's servers joined the run's MCP manager (started, not
   * settled): from then on the manager counts them as starting (the start-up grace, `pending`).
   */
  async whenAdded(): Promise<void> {
    await Promise.all(this.running.values());
  }

  /** Resolves once every running skill's servers have started and settled. */
  async whenSettled(): Promise<void> {
    await Promise.all(
      [...this.running.values()].map((started) => started.then((handle) => handle?.whenSettled())),
    );
  }

  /**
   * Waits for the skills' servers as configured ones are waited for (issue 45): added to the
   * manager, then the run's start-up grace — `wait` before a model request, `over` for commands;
   * without a grace, until every one settled.
   */
  async startup(signal: AbortSignal, grace: StartupGrace | undefined, step: 'wait' | 'over'): Promise<void> {
    await raceAbort(this.whenAdded(), signal);
    if (grace) await grace[step](signal);
    else await raceAbort(this.whenSettled(), signal);
  }

  /** Whether a running skill server offers this tool (of `skill`'s servers, when named). */
  offers(tool: string, skill?: string): boolean {
    const handles = skill === undefined ? [...this.handles.values()] : [this.handles.get(skill)];
    return handles.some((handle) => handle?.toolNames().includes(tool));
  }
}
