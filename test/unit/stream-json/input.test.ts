/**
 * stream-json input lines: Claude Code's user and control_response shapes understood, anything
 * else named; lines split across chunks joined, an over-long line reported and skipped.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { inputLines, MAX_INPUT_LINE, parseInputLine } from '../../../src/stream-json/input.js';

async function collect(chunks: Buffer[]): Promise<{ lines: string[]; tooLong: number[] }> {
  const tooLong: number[] = [];
  const lines: string[] = [];
  for await (const line of inputLines(Readable.from(chunks), (bytes) => tooLong.push(bytes)))
    lines.push(line);
  return { lines, tooLong };
}

describe('parseInputLine', () => {
  it('takes string content and text blocks; refuses other blocks and shapes with the right shape', () => {
    expect(parseInputLine('{"type":"user","message":{"role":"user","content":"hi"}}')).toEqual({
      kind: 'user',
      text: 'hi',
    });
    expect(
      parseInputLine(
        '{"type":"user","message":{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}',
      ),
    ).toEqual({ kind: 'user', text: 'a\n\nb' });
    expect(
      parseInputLine('{"type":"user","message":{"role":"user","content":[{"type":"image","source":{}}]}}'),
    ).toMatchObject({ kind: 'invalid', message: expect.stringContaining('content blocks must be') });
    expect(parseInputLine('   ')).toBeUndefined();
    expect(parseInputLine('[1]')).toMatchObject({ kind: 'invalid' });
  });

  it('reads control responses: allow, deny with its message, an error answer as a deny', () => {
    const response = (inner: unknown) => JSON.stringify({ type: 'control_response', response: inner });
    expect(
      parseInputLine(response({ subtype: 'success', request_id: 'req_1', response: { behavior: 'allow' } })),
    ).toEqual({ kind: 'control_response', requestId: 'req_1', allow: true });
    expect(
      parseInputLine(
        response({ subtype: 'success', request_id: 'req_2', response: { behavior: 'deny', message: 'no' } }),
      ),
    ).toEqual({ kind: 'control_response', requestId: 'req_2', allow: false, message: 'no' });
    expect(parseInputLine(response({ subtype: 'error', request_id: 'req_3', error: 'boom' }))).toEqual({
      kind: 'control_response',
      requestId: 'req_3',
      allow: false,
      message: 'boom',
    });
    expect(parseInputLine(response({ subtype: 'success', request_id: 'req_4', response: {} }))).toMatchObject(
      {
        kind: 'invalid',
      },
    );
  });
});

describe('inputLines', () => {
  it('joins a line split across chunks, keeps multi-byte characters whole, ends without a newline', async () => {
    const text = Buffer.from('é€\n');
    const out = await collect([
      Buffer.from('ab'),
      Buffer.from('c\nd'),
      text.subarray(0, 1),
      text.subarray(1),
      Buffer.from('last'),
    ]);
    expect(out.lines).toEqual(['abc', 'dé€', 'last']);
    expect(out.tooLong).toEqual([]);
  });

  it('reports a line over the cap once and skips it to its end; the next line is read', async () => {
    const half = Buffer.alloc(MAX_INPUT_LINE / 2 + 1, 0x61);
    const out = await collect([half, half, half, Buffer.from('\nnext\n')]);
    expect(out.tooLong).toHaveLength(1);
    expect(out.tooLong[0]).toBeGreaterThan(MAX_INPUT_LINE);
    expect(out.lines).toEqual(['next']);
  });
});
