/**
 * A 64-bit non-cryptographic hash of a string, as 16 hex digits: for names that only need to tell
 * inputs apart (the tool cache's file names, mcp/tool-cache.ts), computed before a start's first
 * request. SHA-256 in JavaScript got hot enough there, with 20 servers, for V8 to optimise it on a
 * worker thread (~8 M instructions of a start's ~390 M); this is a few multiplies per character.
 * Not for anything an adversary must not be able to collide: secrets and pins use SHA-256.
 */

/** Two 32-bit lanes, each a multiply-xor over the UTF-16 code units, then mixed into each other. */
export function quickHashHex(text: string): string {
  let a = 0x9e3779b9 | 0;
  let b = 0x85ebca6b | 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b ^ unit, 0x5bd1e995);
  }
  // murmur3's finaliser on each lane, each seeded with the other: every input bit reaches all 64.
  a = fmix(a ^ Math.imul(b, 0xcc9e2d51) ^ text.length);
  b = fmix(b ^ Math.imul(a, 0x1b873593));
  return hex8(a) + hex8(b);
}

function fmix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function hex8(word: number): string {
  return word.toString(16).padStart(8, '0');
}
