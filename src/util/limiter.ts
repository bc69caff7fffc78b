/** A concurrency limiter: at most `slots` tasks run at once, the rest wait in arrival order. */

export class Limiter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly slots: number) {
    if (!Number.isInteger(slots) || slots < 1)
      throw new RangeError(`slots must be a positive integer, got ${slots}`);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.slots) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}
