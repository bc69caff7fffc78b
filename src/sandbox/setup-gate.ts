/**
 * Keeps the library's look at the file tree apart from bubblewrap's set-up of other commands.
 * A starting bubblewrap creates its mount points on the host (an empty `.claude` folder for an
 * absent denied one); the library, wrapping the next command at that moment, could see the folder
 * missing for one rule and present for the next, and write a line whose mounts contradict each
 * other ("Can't create file at …/.claude/agents: Read-only file system"). So wraps take turns, and
 * each waits until every command wrapped before it has made its mount points (or has ended).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { Limiter } from '../util/limiter.js';
import { exists } from './line-cache.js';

/** How often a waiting wrap looks again, and the longest it waits for a set-up that never comes. */
const POLL_MS = 2;
const MAX_WAIT_MS = 2000;

export class MountSetupGate {
  private readonly turns = new Limiter(1);
  /** Commands wrapped whose mount points may not all exist yet, by id. */
  private readonly pending = new Map<string, readonly string[]>();

  /**
   * Runs `wrap` once no other wrap runs and every earlier command's mount points exist; `wrap`
   * answers the mount points its command will create (undefined: unknown, nothing to wait for).
   */
  wrap<T>(
    id: string,
    wrap: () => Promise<{ line: T; mountPoints: readonly string[] | undefined }>,
  ): Promise<T> {
    return this.turns.run(async () => {
      await this.setUp();
      const { line, mountPoints } = await wrap();
      if (mountPoints && mountPoints.length > 0) this.pending.set(id, mountPoints);
      return line;
    });
  }

  /** The command ended (or never started): nothing of it to wait for. */
  ended(id: string): void {
    this.pending.delete(id);
  }

  private async setUp(): Promise<void> {
    const deadline = Date.now() + MAX_WAIT_MS;
    for (;;) {
      for (const [id, mountPoints] of this.pending) if (mountPoints.every(exists)) this.pending.delete(id);
      if (this.pending.size === 0) return;
      // A command that never starts and is never released must not stop every later one.
      if (Date.now() > deadline) {
        this.pending.clear();
        return;
      }
      await delay(POLL_MS);
    }
  }
}
