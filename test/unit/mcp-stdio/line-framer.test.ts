/**
 * LineFramer on its own: lines split across chunks come out whole and exact although the assembly
 * buffer is reused (a shorter line after a longer one must not carry stale bytes), oversized lines
 * are skipped with their edges kept, and the buffer is let go after a quiet spell.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EDGE, LineFramer, type SkippedLine } from '../../../src/mcp/line-framer.js';

function framer(maxLineBytes = 1 << 20, releaseAfterMs = 1000) {
  const lines: string[] = [];
  const skipped: SkippedLine[] = [];
  const instance = new LineFramer(
    // The view is only valid during the call: copy out as the transport does by decoding.
    { line: (bytes) => lines.push(bytes.toString('latin1')), oversized: (line) => skipped.push(line) },
    { maxLineBytes, releaseAfterMs },
  );
  return { instance, lines, skipped };
}

/** Feeds `text` in chunks of `size` bytes. */
function feed(target: LineFramer, text: string, size: number) {
  const bytes = Buffer.from(text, 'latin1');
  for (let at = 0; at < bytes.length; at += size) target.push(Buffer.from(bytes.subarray(at, at + size)));
}

afterEach(() => vi.useRealTimers());

describe('LineFramer', () => {
  it('reassembles lines split across chunks, exactly, while reusing its buffer', () => {
    const { instance, lines } = framer();
    const long = 'a'.repeat(200_000);
    const shorter = 'b'.repeat(70_000);
    feed(instance, `${long}\n${shorter}\nc\n\nd`, 65_536);
    expect(lines).toEqual([long, shorter, 'c', '']);
    feed(instance, 'e\n', 1);
    expect(lines.at(-1)).toBe('de');
    expect(instance.retainedBytes).toBeGreaterThanOrEqual(200_000);
  });

  it('hands a line that arrives in one chunk on without assembling it', () => {
    const { instance, lines } = framer();
    instance.push(Buffer.from('{"one":1}\n{"two":2}\n'));
    expect(lines).toEqual(['{"one":1}', '{"two":2}']);
    expect(instance.retainedBytes).toBe(0);
  });

  it('skips a line over the limit, keeping its first and last bytes, and goes on', () => {
    const { instance, lines, skipped } = framer(10_000);
    const big = `HEAD${'x'.repeat(20_000)}TAIL`;
    feed(instance, `${big}\nnext\n`, 4096);
    expect(lines).toEqual(['next']);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.bytes).toBe(big.length);
    expect(skipped[0]!.head.toString('latin1')).toBe(big.slice(0, EDGE));
    expect(skipped[0]!.tail.toString('latin1')).toBe(big.slice(-EDGE));
  });

  it('lets its buffer go after a quiet spell, but not while a line is in progress', () => {
    vi.useFakeTimers();
    const { instance, lines } = framer(1 << 20, 1000);
    feed(instance, `${'a'.repeat(100_000)}\n`, 65_536);
    expect(instance.retainedBytes).toBeGreaterThan(0);
    vi.advanceTimersByTime(999);
    expect(instance.retainedBytes).toBeGreaterThan(0);
    vi.advanceTimersByTime(1);
    expect(instance.retainedBytes).toBe(0);

    feed(instance, `${'b'.repeat(100_000)}\n`, 65_536);
    feed(instance, 'c'.repeat(100_000), 65_536);
    vi.advanceTimersByTime(1000);
    expect(instance.retainedBytes).toBeGreaterThan(0);
    instance.push(Buffer.from('\n'));
    expect(lines.at(-1)).toBe('c'.repeat(100_000));
    vi.advanceTimersByTime(1000);
    expect(instance.retainedBytes).toBe(0);
  });

  it('reset() drops a line in progress and the buffer', () => {
    const { instance, lines } = framer();
    feed(instance, 'x'.repeat(100_000), 65_536);
    instance.reset();
    expect(instance.retainedBytes).toBe(0);
    instance.push(Buffer.from('fresh\n'));
    expect(lines).toEqual(['fresh']);
  });
});
