/**
 * sha256Hex (src/util/sha256.ts) gives node:crypto's digest, across block boundaries and UTF-8,
 * in plain JavaScript and in WebAssembly (sha256-wasm.ts, which answers after the first calls).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { plainSha256Hex, sha256Hex } from '../../../src/util/sha256.js';
import { MODULE, wasmSha256 } from '../../../src/util/sha256-wasm.js';
import { sha256ModuleBytes } from '../../../src/util/sha256-wasm-module.js';

const nodeDigest = (text: string) => createHash('sha256').update(text).digest('hex');

const texts = [
  '',
  'abc',
  '/home/ada/src/app',
  'x'.repeat(55),
  'x'.repeat(56),
  'x'.repeat(64),
  'y'.repeat(1000),
  'é✓😀'.repeat(40),
  // Every length across the first blocks' padding edges.
  ...Array.from({ length: 200 }, (_, n) =>
    String.fromCharCode(...Array.from({ length: n }, (_, i) => 32 + ((i * 7 + n) % 95))),
  ),
];

describe('sha256Hex', () => {
  it('matches node:crypto for empty, short, padding-edge, multi-block and non-ASCII text', () => {
    for (const text of texts) expect(sha256Hex(text)).toBe(nodeDigest(text));
  });

  it('matches node:crypto in plain JavaScript and in WebAssembly alike', () => {
    const wasm = wasmSha256();
    expect(wasm).toBeDefined();
    for (const text of texts) {
      const bytes = Buffer.from(text, 'utf8');
      expect(plainSha256Hex(bytes)).toBe(nodeDigest(text));
      expect(wasm!(bytes)).toBe(nodeDigest(text));
    }
  });

  it('hashes what does not fit the WebAssembly page in plain JavaScript', () => {
    const long = 'z'.repeat(70_000);
    expect(wasmSha256()!(Buffer.from(long))).toBeUndefined();
    for (let i = 0; i < 6; i++) expect(sha256Hex(long)).toBe(nodeDigest(long));
  });

  it('carries exactly the module its instructions assemble to', () => {
    expect(Buffer.from(MODULE, 'base64').toString('hex')).toBe(
      Buffer.from(sha256ModuleBytes()).toString('hex'),
    );
  });

  it('gives the known digest of "abc"', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
