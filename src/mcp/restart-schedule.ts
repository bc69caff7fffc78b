/**
 * When a dropped MCP connection tries again: the attempt budget (spent restarts count against
 * `maxAttempts`; a connection that stayed up `stableAfterMs` earns a fresh budget), exponential
 * backoff capped at `maxDelayMs`, and the one pending restart timer. The connection (connection.ts)
 * decides what a restart does and what state it shows; this only counts and waits.
 */
import type { RestartPolicy } from './connection-options.js';

/** The restart just counted: shown in the `failed` state as "retry N/M in …". */
export interface ScheduledRestart {
  attempt: number;
  maxAttempts: number;
  inMs: number;
}

export class RestartSchedule {
  private attempts = 0;
  /** When the current connection came up; 0 while there is none. */
  private connectedAt = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly policy: RestartPolicy) {}

  get maxAttempts(): number {
    return this.policy.maxAttempts;
  }

  /** The number of the connect attempt about to begin (1 for the first start). */
  get nextAttempt(): number {
    return this.attempts + 1;
  }

  connected(): void {
    this.connectedAt = Date.now();
  }

  /** The connection was closed on purpose (a reconnect or close), not lost. */
  disconnected(): void {
    this.connectedAt = 0;
  }

  /**
   * Counts one more restart and says how long to wait before it; undefined when the budget is
   * spent. A connection that had been stable first gets its budget back.
   */
  next(): ScheduledRestart | undefined {
    const policy = this.policy;
    if (this.connectedAt > 0 && Date.now() - this.connectedAt >= policy.stableAfterMs) this.attempts = 0;
    if (this.attempts >= policy.maxAttempts) return undefined;
    this.attempts++;
    const inMs = Math.min(policy.baseDelayMs * 2 ** (this.attempts - 1), policy.maxDelayMs);
    return { attempt: this.attempts, maxAttempts: policy.maxAttempts, inMs };
  }

  /** Runs `restart` after `inMs`; the timer never keeps the process alive on its own. */
  after(inMs: number, restart: () => void): void {
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      restart();
    }, inMs);
    this.timer.unref();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** A manual reconnect: no pending restart, a fresh budget. */
  reset(): void {
    this.cancel();
    this.attempts = 0;
  }
}
