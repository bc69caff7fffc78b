/**
 * The WebAssembly module of sha256-wasm.ts, assembled from its instructions: `compress(ptr,
 * blocks)`, SHA-256's block function over `blocks` 64-byte blocks at `ptr`, with the memory laid out
 * as sha256-wasm.ts describes. Not run by the agent: sha256-wasm.ts carries the bytes (MODULE), and
 * the unit test checks they are these. After a change here, write the new base64 there.
 */
import { H_AT, K_AT, W_AT } from './sha256-wasm.js';

const ROUND_CONSTANTS = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
];

// --- a few WebAssembly instructions, encoded ---
function uleb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}
function sleb(value: number): number[] {
  const out: number[] = [];
  value |= 0;
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    const done = (value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}
const get = (local: number) => [0x20, local];
const set = (local: number) => [0x21, local];
const i32 = (value: number) => [0x41, ...sleb(value)];
/** i32.load / i32.store at the address on the stack plus `offset`, 4-byte aligned. */
const load = (offset: number) => [0x28, 2, ...uleb(offset)];
const store = (offset: number) => [0x36, 2, ...uleb(offset)];
const [ADD, AND, OR, XOR, SHR_U, ROTL, ROTR, LT_U, GE_U] = [
  0x6a, 0x71, 0x72, 0x73, 0x76, 0x77, 0x78, 0x49, 0x4f,
];
const LOOP = [0x03, 0x40];
const BLOCK = [0x02, 0x40];
const END = 0x0b;
const brIf = (depth: number) => [0x0d, depth];
const br = (depth: number) => [0x0c, depth];
const rotr = (local: number, bits: number) => [...get(local), ...i32(bits), ROTR];

// Locals: 0 ptr, 1 blocks (params); 2 i, 3-10 a..h, 11 t1, 12 end, 13 x.
const [PTR, BLOCKS, I, A, B, C, D, E, F, G, H, T1, STOP, X] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
const WORKING = [A, B, C, D, E, F, G, H];
/** `i += 4`, and loop while i < limit. */
const nextWord = (limit: number) => [
  ...get(I),
  ...i32(4),
  ADD,
  ...set(I),
  ...get(I),
  ...i32(limit),
  LT_U,
  ...brIf(0),
];

function compressBody(): number[] {
  return [
    ...[1, 12, 0x7f], // 12 more i32 locals
    ...get(PTR),
    ...get(BLOCKS),
    ...i32(6),
    0x74 /* shl */,
    ADD,
    ...set(STOP),
    ...BLOCK,
    ...LOOP,
    ...get(PTR),
    ...get(STOP),
    GE_U,
    ...brIf(1),
    // W[0..15]: the block's words, byte-swapped to big-endian.
    ...i32(0),
    ...set(I),
    ...LOOP,
    ...get(I), // store address
    ...get(PTR),
    ...get(I),
    ADD,
    ...load(0),
    ...set(X),
    ...get(X),
    ...i32(8),
    ROTR,
    ...i32(0xff00ff00),
    AND,
    ...get(X),
    ...i32(8),
    ROTL,
    ...i32(0x00ff00ff),
    AND,
    OR,
    ...store(W_AT),
    ...nextWord(64),
    END,
    // W[16..63] (i counts bytes: W[i-15] is at i - 60, W[i-2] at i - 8, and so on).
    ...LOOP,
    ...get(I), // store address
    ...get(I),
    ...load(W_AT - 64), // W[i-16]
    ...get(I),
    ...load(W_AT - 60),
    ...set(X), // s0 of W[i-15]
    ...rotr(X, 7),
    ...rotr(X, 18),
    XOR,
    ...get(X),
    ...i32(3),
    SHR_U,
    XOR,
    ADD,
    ...get(I),
    ...load(W_AT - 28),
    ADD, // W[i-7]
    ...get(I),
    ...load(W_AT - 8),
    ...set(X), // s1 of W[i-2]
    ...rotr(X, 17),
    ...rotr(X, 19),
    XOR,
    ...get(X),
    ...i32(10),
    SHR_U,
    XOR,
    ADD,
    ...store(W_AT),
    ...nextWord(256),
    END,
    // a..h from the state.
    ...WORKING.flatMap((local, k) => [...i32(0), ...load(H_AT + 4 * k), ...set(local)]),
    ...i32(0),
    ...set(I),
    ...LOOP,
    // t1 = h + S1(e) + ch(e, f, g) + K[i] + W[i]
    ...get(H),
    ...rotr(E, 6),
    ...rotr(E, 11),
    XOR,
    ...rotr(E, 25),
    XOR,
    ADD,
    ...get(E),
    ...get(F),
    AND,
    ...get(E),
    ...i32(-1),
    XOR,
    ...get(G),
    AND,
    XOR,
    ADD,
    ...get(I),
    ...load(K_AT),
    ADD,
    ...get(I),
    ...load(W_AT),
    ADD,
    ...set(T1),
    ...get(G),
    ...set(H),
    ...get(F),
    ...set(G),
    ...get(E),
    ...set(F),
    ...get(D),
    ...get(T1),
    ADD,
    ...set(E),
    ...get(C),
    ...set(D),
    ...get(B),
    ...set(C),
    // a = t1 + S0(a) + maj(a, b, c), with the old a still in A and now in B
    ...get(T1),
    ...rotr(A, 2),
    ...rotr(A, 13),
    XOR,
    ...rotr(A, 22),
    XOR,
    ADD,
    ...get(A),
    ...get(C),
    AND,
    ...get(A),
    ...get(D),
    AND,
    XOR,
    ...get(C),
    ...get(D),
    AND,
    XOR,
    ADD,
    ...get(A),
    ...set(B),
    ...set(A),
    ...nextWord(256),
    END,
    // H += a..h
    ...WORKING.flatMap((local, k) => [
      ...i32(0),
      ...i32(0),
      ...load(H_AT + 4 * k),
      ...get(local),
      ADD,
      ...store(H_AT + 4 * k),
    ]),
    ...get(PTR),
    ...i32(64),
    ADD,
    ...set(PTR),
    ...br(0),
    END,
    END,
    END,
  ];
}

function section(id: number, content: number[]): number[] {
  return [id, ...uleb(content.length), ...content];
}
const name = (text: string) => [text.length, ...Array.from(text, (c) => c.charCodeAt(0))];

export function sha256ModuleBytes(): Uint8Array {
  const body = compressBody();
  const constants = ROUND_CONSTANTS.flatMap((k) => [k & 0xff, (k >>> 8) & 0xff, (k >>> 16) & 0xff, k >>> 24]);
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 2, 0x7f, 0x7f, 0]), // (i32, i32) -> ()
    ...section(3, [1, 0]),
    ...section(5, [1, 0, 1]), // one page
    ...section(7, [2, ...name('memory'), 2, 0, ...name('compress'), 0, 0]),
    ...section(10, [1, ...uleb(body.length), ...body]),
    ...section(11, [1, 0, ...i32(K_AT), END, ...uleb(constants.length), ...constants]),
  ]);
}
