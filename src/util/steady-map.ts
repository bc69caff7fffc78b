/**
 * A Map for entries that come and go one at a time (a request in flight): it keeps one private
 * entry of its own, so removing the last real one never empties it. V8 shrinks a Map whose last
 * entry goes (a runtime call and a new table), about 1 µs each time on this path (bench row 3).
 */
const KEEP: unique symbol = Symbol('steady-map');

export class SteadyMap<K, V> {
  private readonly map = new Map<K | typeof KEEP, V | undefined>([[KEEP, undefined]]);

  get size(): number {
    return this.map.size - 1;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V): this {
    this.map.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  *values(): IterableIterator<V> {
    for (const [key, value] of this.map) if (key !== KEEP) yield value as V;
  }

  clear(): void {
    this.map.clear();
    this.map.set(KEEP, undefined);
  }
}
