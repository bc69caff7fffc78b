/**
 * The library's message sink: stream-json messages queued for the caller's iteration. A turn waits
 * (`pace()`) while the caller is more than HIGH_WATER messages behind, as the CLI's turn waits on a
 * full stdout; `end()`/`fail()` finish the iteration after what is queued.
 */
import type { MessageSink } from '../stream-json/output.js';

const HIGH_WATER = 256;

export class MessageQueue<T> implements MessageSink {
  private readonly items: T[] = [];
  private done: { error?: unknown } | undefined;
  private wakeReader: (() => void) | undefined;
  private drained: { promise: Promise<void>; resolve: () => void } | undefined;

  write(value: unknown): void {
    if (this.done) return;
    // Exactly what the CLI's line says (undefined fields gone), and the caller's own object.
    this.items.push(JSON.parse(JSON.stringify(value)) as T);
    this.wake();
  }

  pace(): Promise<void> | undefined {
    if (this.items.length < HIGH_WATER || this.done) return undefined;
    if (!this.drained) {
      let resolve = () => {};
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      this.drained = { promise, resolve };
    }
    return this.drained.promise;
  }

  /** Everything is queued for the caller, who reads it after the end: nothing to wait for. */
  async flushed(): Promise<void> {}

  end(): void {
    this.done ??= {};
    this.wake();
    this.release();
  }

  fail(error: unknown): void {
    this.done ??= { error };
    this.wake();
    this.release();
  }

  /** The next message; undefined once ended and empty (throws the failure, if it failed). */
  async next(): Promise<T | undefined> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        if (this.items.length < HIGH_WATER / 2) this.release();
        return item;
      }
      if (this.done) {
        if (this.done.error !== undefined) {
          const { error } = this.done;
          this.done = {};
          throw error;
        }
        return undefined;
      }
      await new Promise<void>((resolve) => {
        this.wakeReader = resolve;
      });
      this.wakeReader = undefined;
    }
  }

  private wake(): void {
    this.wakeReader?.();
  }

  private release(): void {
    this.drained?.resolve();
    this.drained = undefined;
  }
}
