/**
 * The start-up grace of a run's first model request: servers without a cached tool list are
 * waited for only this long (counted from when the servers began to start, so a person who takes
 * longer than that to type the first message does not wait at all), then requests go with what is
 * ready. Owns which servers were still starting when the first request went (`late`, fixed for the
 * run so the system prompt that names them stays byte-identical), the same wait without fixing
 * them (`over`: stream-json's init line, print mode's `/mcp`) and the full wait that `tool_search`
 * and a call to a starting server's tool make (each server's own start-up timeout bounds it).
 */
import { type EnvSetting, readEnvSetting, wholeNumberIn } from '../settings/env-setting.js';
import { visibleLine } from '../util/terminal-text.js';
import type { McpManager } from './manager.js';
import { sanitizeName } from './naming.js';

/**
 * Measured (bench/cold-start.mjs, 2-core VM): a plain stdio server lists its tools in ~150–400 ms
 * of a cold run, 20 at once in ~1–2 s; a second covers the usual ones while an `npx` download or a
 * JVM no longer holds "hi" back.
 */
export const START_GRACE_MS = 1_000;

/** The MCP section's start-up grace variable (`geekagent config`: `mcp.startGraceMs`). */
export const startGraceEnvSetting: EnvSetting<number> = {
  key: 'mcp.startGraceMs',
  variable: 'GEEKAGENT_MCP_START_GRACE_MS',
  description: "how long a run's first request waits for MCP servers without a cached tool list (ms)",
  default: START_GRACE_MS,
  // Digits only (not `1e3` or `0x10`), at most what Node's timers take (a bigger delay fires at once).
  parse: wholeNumberIn(
    0,
    2_147_483_647,
    (text) =>
      `GEEKAGENT_MCP_START_GRACE_MS=${visibleLine(text)} is not a whole number of milliseconds: using ${START_GRACE_MS}`,
  ),
};

/** `GEEKAGENT_MCP_START_GRACE_MS`: the grace in milliseconds (tests set it); else the default. */
export function startGraceMs(env: NodeJS.ProcessEnv): { ms: number; problem?: string } {
  const read = readEnvSetting(startGraceEnvSetting, env);
  return read.problem !== undefined ? { ms: read.value, problem: read.problem } : { ms: read.value };
}

export class StartGrace {
  private lateNames: readonly string[] | undefined;

  constructor(
    private readonly manager: McpManager,
    private readonly ms: number,
    /** The clock (a test moves it past the grace). */
    private readonly now: () => number = Date.now,
  ) {}

  /** Before a model request: `over`; the first return fixes `late()`. */
  async wait(signal: AbortSignal): Promise<void> {
    await this.over(signal);
    this.lateNames ??= this.manager.pending();
  }

  /**
   * Until the servers settle, or the grace (from the servers' start) is over and every server
   * still starting is a cold one (a server whose list an earlier run cached is waited for whole:
   * that run's tool list, and the provider's cache of it, stay), or `signal` aborts. What is
   * ready then is what the first request would carry; `late()` stays open (a stream-json program
   * may send its first message long after the init line).
   */
  async over(signal: AbortSignal): Promise<void> {
    // Servers not started yet (a slash command before any turn) start now, as whenSettled would.
    this.manager.start();
    const deadline = (this.manager.startedAt ?? this.now()) + this.ms;
    while (!this.manager.settled && !signal.aborted) {
      const left = deadline - this.now();
      const warm = this.manager.pending().some((name) => this.manager.hasCachedListing(name));
      if (left <= 0 && !warm) break;
      await nextChange(this.manager, left > 0 ? left : undefined, signal);
    }
    signal.throwIfAborted();
  }

  /** Servers still starting when the first request went (empty before it): the prompt names them. */
  late(): readonly string[] {
    return this.lateNames ?? [];
  }

  /** Whether `server` is starting now (tools not listed yet). */
  starting(server: string): boolean {
    return this.manager.pending().includes(server);
  }

  /**
   * A call names a tool not registered: if it may be a starting server's (`mcp_<server>_…`), waits
   * until that server settled (its start-up timeout bounds it) or `signal` aborts.
   */
  async toolOf(name: string, signal: AbortSignal): Promise<void> {
    const starting = () =>
      this.manager.pending().filter((server) => name.startsWith(`mcp_${sanitizeName(server)}_`));
    if (starting().length === 0) return;
    await new Promise<void>((resolve) => {
      const finish = () => {
        unsubscribe();
        signal.removeEventListener('abort', finish);
        resolve();
      };
      const unsubscribe = this.manager.onChange(() => {
        if (starting().length === 0) finish();
      });
      signal.addEventListener('abort', finish, { once: true });
      if (signal.aborted || starting().length === 0) finish();
    });
  }

  /** Every server settled (each bounded by its start-up timeout), or `signal` aborted. */
  async all(signal: AbortSignal): Promise<void> {
    if (!this.manager.settled) await settledWithin(this.manager, signal);
    signal.throwIfAborted();
  }
}

function settledWithin(manager: McpManager, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const finish = () => {
      signal.removeEventListener('abort', finish);
      resolve();
    };
    signal.addEventListener('abort', finish, { once: true });
    manager.whenSettled().then(finish, finish);
  });
}

/** The manager's next change, or `ms` passing, or `signal` aborting. */
function nextChange(manager: McpManager, ms: number | undefined, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const finish = () => {
      if (timer) clearTimeout(timer);
      unsubscribe();
      signal.removeEventListener('abort', finish);
      resolve();
    };
    const timer = ms === undefined ? undefined : setTimeout(finish, ms);
    const unsubscribe = manager.onChange(finish);
    signal.addEventListener('abort', finish, { once: true });
  });
}
