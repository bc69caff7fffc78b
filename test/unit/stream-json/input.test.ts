/**
 * stream-json input lines: Claude Code's user and control_response shapes understood, anything
 * else named; lines split across chunks joined, an over-long line reported and skipped. The control
 * channel: an answer reaches its asker, a withdrawn request is cancelled in-band, closed stdin ends all.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ControlChannel } from '../../../src/stream-json/control.js';
import { inputLines, MAX_INPUT_LINE, parseInputLine } from '../../../src/stream-json/input.js';
import type { MessageSink } from '../../../src/stream-json/output.js';

/** A channel whose written lines are kept. */
function channel(): { control: ControlChannel; written: Record<string, unknown>[] } {
  const written: Record<string, unknown>[] = [];
  const lines = { write: (line: Record<string, unknown>) => written.push(line) } as unknown as MessageSink;
  return { control: new ControlChannel(lines), written };
}

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

  it('reads control responses: the answer as sent for its asker, an error answer with its message', () => {
    const response = (inner: unknown) => JSON.stringify({ type: 'control_response', response: inner });
    expect(
      parseInputLine(response({ subtype: 'success', request_id: 'req_1', response: { behavior: 'allow' } })),
    ).toEqual({
      kind: 'control_response',
      requestId: 'req_1',
      reply: { subtype: 'success', response: { behavior: 'allow' } },
    });
    expect(parseInputLine(response({ subtype: 'error', request_id: 'req_3', error: 'boom' }))).toEqual({
      kind: 'control_response',
      requestId: 'req_3',
      reply: { subtype: 'error', message: 'boom' },
    });
    expect(parseInputLine(response({ subtype: 'maybe', request_id: 'req_4' }))).toMatchObject({
      kind: 'invalid',
    });
    expect(parseInputLine(response({ subtype: 'success' }))).toMatchObject({ kind: 'invalid' });
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

describe('ControlChannel', () => {
  it('gives each request its own id and the answer to its asker; an unknown id is told apart', async () => {
    const { control, written } = channel();
    const first = control.request({ subtype: 'elicitation' }, new AbortController().signal);
    const second = control.request({ subtype: 'can_use_tool' }, new AbortController().signal);
    expect(written.map((line) => line.request_id)).toEqual(['req_1', 'req_2']);
    expect(control.answer('req_9', { subtype: 'error', message: 'x' })).toEqual({ kind: 'unknown' });
    expect(control.answer('req_2', { subtype: 'success', response: { behavior: 'deny' } })).toEqual({
      kind: 'taken',
    });
    expect(await second).toEqual({
      kind: 'answered',
      reply: { subtype: 'success', response: { behavior: 'deny' } },
    });
    control.close();
    expect(await first).toEqual({ kind: 'closed' });
    expect(await control.request({}, new AbortController().signal)).toEqual({ kind: 'closed' });
  });

  it('withdraws a request whose asker gave up with control_cancel_request; a late answer finds nothing', async () => {
    const { control, written } = channel();
    const abort = new AbortController();
    const asked = control.request({ subtype: 'elicitation' }, abort.signal);
    abort.abort();
    expect(await asked).toEqual({ kind: 'withdrawn' });
    expect(written.at(-1)).toEqual({ type: 'control_cancel_request', request_id: 'req_1' });
    expect(control.answer('req_1', { subtype: 'success', response: {} })).toEqual({ kind: 'unknown' });
  });

  it("keeps a request open when its asker's check refuses the answer", async () => {
    const { control } = channel();
    const asked = control.request({}, new AbortController().signal, (reply) =>
      reply.subtype === 'success' && reply.response === 1 ? 'not that' : undefined,
    );
    expect(control.answer('req_1', { subtype: 'success', response: 1 })).toEqual({
      kind: 'invalid',
      message: 'not that',
    });
    expect(control.answer('req_1', { subtype: 'success', response: 2 })).toEqual({ kind: 'taken' });
    expect(await asked).toMatchObject({ kind: 'answered' });
  });
});
