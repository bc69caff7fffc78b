/**
 * The order extensions are set up in (and so the order their hooks run in): each one's declared
 * `after` / `before` names, else the order they were given — a stable topological order. A name no
 * extension has, or declarations that wait on each other, is an error naming both extensions.
 */
import type { Extension } from './types.js';

/**
 * `incoming` in setup order. `present`: the names of extensions already set up (an earlier `add`):
 * an `after` on one of them holds already, a `before` on one of them can no longer.
 */
export function orderExtensions(present: readonly string[], incoming: readonly Extension[]): Extension[] {
  const names = new Set(incoming.map((extension) => extension.name));
  const done = new Set(present);
  /** For each incoming extension, the incoming ones that must be set up before it. */
  const waitsFor = new Map<Extension, Set<Extension>>(incoming.map((extension) => [extension, new Set()]));
  const byName = (name: string) => incoming.filter((extension) => extension.name === name);
  for (const extension of incoming) {
    for (const name of extension.after ?? []) {
      if (names.has(name)) for (const first of byName(name)) waitsFor.get(extension)!.add(first);
      else if (!done.has(name))
        throw new Error(
          `extension "${extension.name}" runs after "${name}", which is not added: add "${name}" or drop it from "${extension.name}"'s after`,
        );
    }
    for (const name of extension.before ?? []) {
      if (names.has(name)) for (const later of byName(name)) waitsFor.get(later)!.add(extension);
      else
        throw new Error(
          done.has(name)
            ? `extension "${extension.name}" runs before "${name}", which is already added: add "${extension.name}" first`
            : `extension "${extension.name}" runs before "${name}", which is not added: add "${name}" or drop it from "${extension.name}"'s before`,
        );
    }
  }
  const ordered: Extension[] = [];
  const placed = new Set<Extension>();
  while (ordered.length < incoming.length) {
    // The first in the given order whose every predecessor is placed: a stable order.
    const next = incoming.find(
      (extension) =>
        !placed.has(extension) && [...waitsFor.get(extension)!].every((first) => placed.has(first)),
    );
    if (!next)
      throw new Error(
        cycleMessage(
          incoming.filter((extension) => !placed.has(extension)),
          waitsFor,
        ),
      );
    placed.add(next);
    ordered.push(next);
  }
  return ordered;
}

/** Follows what the first unplaced extension waits for until one repeats: that loop is the cycle. */
function cycleMessage(left: readonly Extension[], waitsFor: Map<Extension, Set<Extension>>): string {
  const path: Extension[] = [];
  let at = left[0]!;
  while (!path.includes(at)) {
    path.push(at);
    at = [...waitsFor.get(at)!].find((first) => left.includes(first))!;
  }
  const loop = path.slice(path.indexOf(at)).reverse();
  const names = [...loop, loop[0]!].map((extension) => `"${extension.name}"`);
  return `extensions wait for each other: ${names.join(' → ')} (each must come before the next); drop one of their after/before declarations`;
}
