/** SteadyMap: a Map's get/set/delete/values/size/clear, with its own keep-alive entry never showing. */
import { describe, expect, it } from 'vitest';
import { SteadyMap } from '../../../src/util/steady-map.js';

describe('SteadyMap', () => {
  it('behaves as a Map of its own entries, empty or not', () => {
    const map = new SteadyMap<number | string, string>();
    expect(map.size).toBe(0);
    expect([...map.values()]).toEqual([]);
    map.set(1, 'one').set('two', 'zwei');
    expect(map.size).toBe(2);
    expect(map.get(1)).toBe('one');
    expect(map.get('two')).toBe('zwei');
    expect(map.get(3)).toBeUndefined();
    expect([...map.values()]).toEqual(['one', 'zwei']);
    expect(map.delete(1)).toBe(true);
    expect(map.delete(1)).toBe(false);
    expect(map.delete('two')).toBe(true);
    expect(map.size).toBe(0);
    expect([...map.values()]).toEqual([]);
  });

  it('is empty after clear, and usable again', () => {
    const map = new SteadyMap<number, number>();
    for (let i = 0; i < 100; i++) map.set(i, i * i);
    map.clear();
    expect(map.size).toBe(0);
    expect([...map.values()]).toEqual([]);
    map.set(7, 49);
    expect([...map.values()]).toEqual([49]);
  });
});
