/**
 * A search index to and from bytes, for large indexes (the knowledge base): the same parts as the
 * JSON form (serialize.ts) without JSON or base64 — `GKSEARCH`, a 4-byte header length, the
 * header as JSON (format, version, analyzer, k1, b, stem, fields, counts and section sizes), then
 * the ids and the terms as newline-separated UTF-8, then the length and posting varints as they
 * are, then each posting list's byte size. Loading a 150,000-chunk index is one UTF-8 decode and
 * split per list, no copy or scan of the postings, and no id map until the first change
 * (`DocNumbers`). The bytes come from the project folder, so they are as untrusted as the JSON form:
 * every size is checked and a problem throws `SearchIndexFormatError`.
 */
import { formatError as fail } from './format-error.js';
import type { IndexState } from './index-state.js';
import { decodeParts, serializeParts } from './serialize.js';

const MAGIC = Buffer.from('GKSEARCH', 'latin1');

/** The index as bytes; ids (the caller's strings) must not hold a newline. */
export function indexToBytes(s: IndexState): Uint8Array {
  return Buffer.concat(indexToByteParts(s));
}

/** The same bytes in parts, for a caller that writes them next to its own (no extra copy). */
export function indexToByteParts(s: IndexState): Uint8Array[] {
  const { header, ids, terms, lengths, postings, listSizes } = serializeParts(s);
  const idBytes = joinLines(ids, 'an id');
  const termBytes = joinLines(terms, 'a term');
  const head = Buffer.from(
    JSON.stringify({
      ...header,
      ids: ids.length,
      terms: terms.length,
      sections: [idBytes.length, termBytes.length, lengths.length, postings.length, listSizes.length],
    }),
  );
  const size = Buffer.alloc(4);
  size.writeUInt32LE(head.length);
  return [MAGIC, size, head, idBytes, termBytes, lengths, postings, listSizes];
}

/** The state of `indexToBytes`'s output, boosts overridable. */
export function decodeIndexBytes(
  bytes: Uint8Array,
  boosts: Readonly<Record<string, { boost?: number }>> = {},
): IndexState {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (buffer.length < 12 || !buffer.subarray(0, 8).equals(MAGIC)) fail('not a binary search index');
  const headLength = buffer.readUInt32LE(8);
  if (12 + headLength > buffer.length) fail('the header runs past the end');
  let head: Record<string, unknown>;
  try {
    head = JSON.parse(buffer.toString('utf8', 12, 12 + headLength));
  } catch {
    fail('the header is not JSON');
  }
  if (typeof head !== 'object' || head === null) fail('the header is not an object');
  const sections = head.sections;
  if (
    !Array.isArray(sections) ||
    sections.length !== 5 ||
    !sections.every((n) => Number.isSafeInteger(n) && n >= 0)
  )
    fail('the section sizes are not five whole numbers');
  const [idSize, termSize, lengthSize, postingSize, listSize] = sections as number[];
  const starts = [12 + headLength];
  for (const n of sections as number[]) starts.push(starts.at(-1)! + n);
  if (starts.at(-1) !== buffer.length) fail('the sections do not add up to the file size');
  const at = (i: number, n: number) => buffer.subarray(starts[i]!, starts[i]! + n);
  return decodeParts(
    head,
    boosts,
    () => ({
      ids: splitLines(at(0, idSize!), head.ids, 'ids'),
      terms: splitLines(at(1, termSize!), head.terms, 'terms'),
    }),
    () => ({ lengths: at(2, lengthSize!), postings: at(3, postingSize!), listSizes: at(4, listSize!) }),
    true,
  );
}

function joinLines(list: readonly string[], what: string): Buffer {
  for (const item of list) {
    if (item.includes('\n')) throw new Error(`search index: ${what} holds a newline (use the JSON form)`);
  }
  return Buffer.from(list.join('\n'));
}

function splitLines(bytes: Buffer, count: unknown, name: string): string[] {
  if (!Number.isSafeInteger(count) || (count as number) < 0) fail(`${name}: the count is not a number`);
  if (count === 0) {
    if (bytes.length !== 0) fail(`${name}: data for an empty list`);
    return [];
  }
  const list = bytes.toString('utf8').split('\n');
  if (list.length !== count) fail(`${name}: ${list.length} entries, the header says ${String(count)}`);
  return list;
}
