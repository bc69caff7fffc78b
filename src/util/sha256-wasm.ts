/**
 * SHA-256's block function as a tiny WebAssembly module, for a start that hashes many keys (20
 * cached MCP servers: 20 tool-cache keys). The plain JavaScript of sha256.ts runs in the
 * interpreter, ~0.1 ms a key, and once it is hot V8 compiles it on a worker thread: 20 keys cost a
 * start ~9 ms of CPU that way, against ~2 ms here (most of it WebAssembly's own set-up), so
 * sha256.ts moves here after its first few calls. Same digests (the unit test checks both against
 * node:crypto). The module's bytes are assembled from its instructions by sha256-wasm-module.ts;
 * the test checks that MODULE below is exactly that (assembling it at run time costs ~6 ms).
 *
 * Memory (one 64 KiB page): the round constants at 0, the message schedule W at 256, the state H
 * at 512, the padded message from 1024. `compress(ptr, blocks)` runs the block function over
 * `blocks` 64-byte blocks at `ptr` (big-endian words, as the standard reads them).
 */

export const K_AT = 0;
export const W_AT = 256;
export const H_AT = 512;
const MESSAGE_AT = 1024;
const PAGE = 65_536;

const INITIAL_STATE = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/** sha256-wasm-module.ts's `sha256ModuleBytes()`, in base64. */
export const MODULE =
  'AGFzbQEAAAABBgFgAn9/AAMCAQAFAwEAAQcVAgZtZW1vcnkCAAhjb21wcmVzcwAACoUEAYIEAQx/IAAgAUEGdGohDAJAA0Ag' +
  'ACAMTw0BQQAhAgNAIAIgACACaigCACENIA1BCHhBgP6DeHEgDUEId0H/gfwHcXI2AoACIAJBBGohAiACQcAASQ0ACwNAIAIg' +
  'AigCwAEgAigCxAEhDSANQQd4IA1BEnhzIA1BA3ZzaiACKALkAWogAigC+AEhDSANQRF4IA1BE3hzIA1BCnZzajYCgAIgAkEE' +
  'aiECIAJBgAJJDQALQQAoAoAEIQNBACgChAQhBEEAKAKIBCEFQQAoAowEIQZBACgCkAQhB0EAKAKUBCEIQQAoApgEIQlBACgC' +
  'nAQhCkEAIQIDQCAKIAdBBnggB0ELeHMgB0EZeHNqIAcgCHEgB0F/cyAJcXNqIAIoAgBqIAIoAoACaiELIAkhCiAIIQkgByEI' +
  'IAYgC2ohByAFIQYgBCEFIAsgA0ECeCADQQ14cyADQRZ4c2ogAyAFcSADIAZxcyAFIAZxc2ogAyEEIQMgAkEEaiECIAJBgAJJ' +
  'DQALQQBBACgCgAQgA2o2AoAEQQBBACgChAQgBGo2AoQEQQBBACgCiAQgBWo2AogEQQBBACgCjAQgBmo2AowEQQBBACgCkAQg' +
  'B2o2ApAEQQBBACgClAQgCGo2ApQEQQBBACgCmAQgCWo2ApgEQQBBACgCnAQgCmo2ApwEIABBwABqIQAMAAsLCwuHAgEAQQAL' +
  'gAKYL4pCkUQ3cc/7wLWl27XpW8JWOfER8Vmkgj+S1V4cq5iqB9gBW4MSvoUxJMN9DFV0Xb5y/rHegKcG3Jt08ZvBwWmb5IZH' +
  'vu/GncEPzKEMJG8s6S2qhHRK3KmwXNqI+XZSUT6YbcYxqMgnA7DHf1m/8wvgxkeRp9VRY8oGZykpFIUKtyc4IRsu/G0sTRMN' +
  'OFNUcwpluwpqdi7JwoGFLHKSoei/oktmGqhwi0vCo1FsxxnoktEkBpnWhTUO9HCgahAWwaQZCGw3Hkx3SCe1vLA0swwcOUqq' +
  '2E5Pypxb828uaO6Cj3RvY6V4FHjIhAgCx4z6/76Q62xQpPej+b7yeHHG';

export type Sha256 = (bytes: Uint8Array) => string | undefined;

/** What is used of the WebAssembly global (the compiler's libraries here do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

/**
 * The hex SHA-256 of `bytes` (undefined when too long for the module's page: the caller hashes it
 * itself); undefined when this runtime has no WebAssembly.
 */
export function wasmSha256(): Sha256 | undefined {
  const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (!api) return undefined;
  const instance = new api.Instance(new api.Module(Buffer.from(MODULE, 'base64')), {});
  const memory = instance.exports.memory as { buffer: ArrayBuffer };
  const compress = instance.exports.compress as (ptr: number, blocks: number) => void;
  // The memory never grows: these views stay valid.
  const u8 = new Uint8Array(memory.buffer);
  const words = new Uint32Array(memory.buffer);
  const view = new DataView(memory.buffer);
  return (bytes) => {
    const n = bytes.length;
    const padded = ((n + 9 + 63) >> 6) << 6;
    if (MESSAGE_AT + padded > PAGE) return undefined;
    u8.set(bytes, MESSAGE_AT);
    u8.fill(0, MESSAGE_AT + n, MESSAGE_AT + padded);
    u8[MESSAGE_AT + n] = 0x80;
    view.setUint32(MESSAGE_AT + padded - 8, Math.floor(n / 0x20000000), false);
    view.setUint32(MESSAGE_AT + padded - 4, (n << 3) >>> 0, false);
    words.set(INITIAL_STATE, H_AT / 4);
    compress(MESSAGE_AT, padded >> 6);
    let out = '';
    for (let k = 0; k < 8; k++) out += words[H_AT / 4 + k]!.toString(16).padStart(8, '0');
    return out;
  };
}
