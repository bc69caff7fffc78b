import { describe, expect, it } from 'vitest';
import { createTimeTool, localIso } from '../../../src/tools/builtin/time.js';
import { makeContext, runText } from './helpers.js';

describe('get_current_time', () => {
  it('gives local time with its offset and the same instant in UTC', async () => {
    const instant = new Date('2026-03-04T05:06:07.890Z');
    const tool = createTimeTool({ now: () => instant });
    const out = await runText(tool, {}, makeContext('/nonexistent-root').ctx);
    const [local, utc] = out.split('\n');
    expect(utc).toBe('utc: 2026-03-04T05:06:07.890Z');
    const match = /^local: (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d) \((\w+day), (.+)\)$/.exec(
      local ?? '',
    );
    expect(match).not.toBeNull();
    // The local form must name the same instant (to the second) once its offset is applied.
    expect(new Date(match![1]!).getTime()).toBe(Math.floor(instant.getTime() / 1000) * 1000);
    expect(match![3]).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('formats negative and positive offsets', () => {
    const date = new Date('2026-01-01T00:00:00Z');
    const text = localIso(date);
    const offset = -date.getTimezoneOffset();
    const expectedSuffix =
      (offset >= 0 ? '+' : '-') +
      `${String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0')}:${String(Math.abs(offset) % 60).padStart(2, '0')}`;
    expect(text.endsWith(expectedSuffix)).toBe(true);
    expect(new Date(text).getTime()).toBe(date.getTime());
  });
});
