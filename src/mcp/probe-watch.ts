/**
 * A stdio server slow to start (an `npx` download, a big runtime) may answer the `server/discover`
 * probe after the SDK stopped waiting for it (connect-attempt.ts's stdio probe timeout) and fell
 * back to `initialize`: without this it would be judged a 2025 server — connected as one (a server
 * of both eras) and cached so for a week, or refused as sharing no version (a 2026-only one). The
 * watch sees the probe go out and its answer come back on the wire, however late; a connect that
 * ended in the 2025 era (or failed) while the server did answer the probe becomes a
 * `LateDiscoverError`, and the connection starts the server again as a 2026 one (connect-retry.ts)
 * with the answer as the SDK's `prior`. SDK-free (message types only).
 */
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/client';
import { type DiscoverRecord, isDiscover, MODERN_VERSION } from './era.js';
import type { MessageWatch } from './notification-flow.js';

export class ProbeWatch implements MessageWatch {
  private readonly probes = new Set<RequestId>();
  private answer: DiscoverRecord | undefined;
  private waiting: (() => void) | undefined;

  /** Whether a probe went out and has no answer yet. */
  get unanswered(): boolean {
    return this.probes.size > 0 && this.answer === undefined;
  }

  /**
   * The late answer, once it comes (within `ms`): for a server that refused `initialize` saying
   * it speaks 2026-07-28, whose answer to the earlier probe may follow its refusal on the wire.
   */
  async lateAnswer(ms: number): Promise<DiscoverRecord | undefined> {
    if (this.unanswered) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
        timer = setTimeout(resolve, ms);
      });
      clearTimeout(timer);
      this.waiting = undefined;
    }
    return this.modernAnswer;
  }

  sent(message: JSONRPCMessage): void {
    if ('method' in message && message.method === 'server/discover' && 'id' in message)
      this.probes.add(message.id);
  }

  received(message: JSONRPCMessage): void {
    if (!('id' in message) || !('result' in message) || !this.probes.has(message.id)) return;
    if (isDiscover(message.result)) this.answer = message.result;
    this.waiting?.();
  }

  /** The server's discover answer when it offers the 2026 revision we speak; undefined otherwise. */
  get modernAnswer(): DiscoverRecord | undefined {
    return this.answer?.supportedVersions.includes(MODERN_VERSION) ? this.answer : undefined;
  }
}

/** The server answered `server/discover` after the probe had given up: it is a 2026 server. */
export class LateDiscoverError extends Error {
  constructor(
    readonly discover: DiscoverRecord,
    cause: unknown,
  ) {
    super('the server answered server/discover only after the probe had given up (a slow start)', { cause });
  }
}
