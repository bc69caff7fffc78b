/**
 * SHA-256 of a short string, in plain JavaScript: the same hex digest as node:crypto's
 * `createHash('sha256').update(text).digest('hex')`, for the keys a start computes before its
 * first model request (the project's state folder, config/project-state.ts; env and header values
 * in the tool cache's keys, mcp/tool-cache.ts; hashed MCP tool names). Loading node:crypto costs a
 * start ~4.5 ms of CPU on Node 24; here one path costs ~0.3 ms cold. Run on many inputs it gets hot
 * enough for V8 to optimise it on a worker (the tool cache's file names now use util/quick-hash.ts).
 * Large inputs (files, contents) still go to node:crypto.
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/** The hex SHA-256 of `text`'s UTF-8 bytes. Plain loops and inlined rotations: it runs cold, in the interpreter. */
export function sha256Hex(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  const n = bytes.length;
  // The message as big-endian words, a 1 bit, zeros, and the bit length: whole 64-byte blocks.
  const blocks = (n + 9 + 63) >> 6;
  const m = new Int32Array(blocks * 16);
  for (let i = 0; i < n; i++) m[i >> 2] = m[i >> 2]! | (bytes[i]! << (24 - (i & 3) * 8));
  m[n >> 2] = m[n >> 2]! | (0x80 << (24 - (n & 3) * 8));
  m[blocks * 16 - 2] = Math.floor(n / 0x20000000);
  m[blocks * 16 - 1] = n << 3;
  let h0 = 0x6a09e667 | 0,
    h1 = 0xbb67ae85 | 0,
    h2 = 0x3c6ef372 | 0,
    h3 = 0xa54ff53a | 0,
    h4 = 0x510e527f | 0,
    h5 = 0x9b05688c | 0,
    h6 = 0x1f83d9ab | 0,
    h7 = 0x5be0cd19 | 0;
  const w = new Int32Array(64);
  for (let off = 0; off < m.length; off += 16) {
    for (let i = 0; i < 16; i++) w[i] = m[off + i]!;
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15]!,
        y = w[i - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
    }
    let a = h0,
      b = h1,
      c = h2,
      d = h3,
      e = h4,
      f = h5,
      g = h6,
      k = h7;
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (k + S1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + k) | 0;
  }
  let out = '';
  for (const word of [h0, h1, h2, h3, h4, h5, h6, h7]) out += (word >>> 0).toString(16).padStart(8, '0');
  return out;
}
