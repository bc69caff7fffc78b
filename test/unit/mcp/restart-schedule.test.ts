import { afterEach, describe, expect, it, vi } from 'vitest';
import { RestartSchedule } from '../../../src/mcp/restart-schedule.js';

const policy = { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 250, stableAfterMs: 1_000 };

afterEach(() => {
  vi.useRealTimers();
});

describe('RestartSchedule', () => {
  it('backs off exponentially up to the cap, then gives up once the budget is spent', () => {
    const schedule = new RestartSchedule(policy);
    expect(schedule.nextAttempt).toBe(1);
    expect([schedule.next(), schedule.next(), schedule.next()]).toEqual([
      { attempt: 1, maxAttempts: 3, inMs: 100 },
      { attempt: 2, maxAttempts: 3, inMs: 200 },
      { attempt: 3, maxAttempts: 3, inMs: 250 },
    ]);
    expect(schedule.nextAttempt).toBe(4);
    expect(schedule.next()).toBeUndefined();
    schedule.reset();
    expect(schedule.next()).toEqual({ attempt: 1, maxAttempts: 3, inMs: 100 });
  });

  it('a connection that stayed up stableAfterMs earns a fresh budget; a shorter one does not', () => {
    vi.useFakeTimers();
    const schedule = new RestartSchedule(policy);
    schedule.next();
    schedule.next();
    schedule.connected();
    vi.advanceTimersByTime(999);
    expect(schedule.next()?.attempt).toBe(3);
    schedule.connected();
    vi.advanceTimersByTime(1_000);
    expect(schedule.next()?.attempt).toBe(1);
  });

  it('runs one pending restart after its delay; cancel drops it', () => {
    vi.useFakeTimers();
    const schedule = new RestartSchedule(policy);
    const restart = vi.fn();
    schedule.after(100, restart);
    vi.advanceTimersByTime(99);
    expect(restart).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(restart).toHaveBeenCalledTimes(1);
    schedule.after(100, restart);
    schedule.cancel();
    vi.advanceTimersByTime(1_000);
    expect(restart).toHaveBeenCalledTimes(1);
  });
});
