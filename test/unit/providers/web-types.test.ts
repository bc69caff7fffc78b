/**
 * The light fetch types (providers/web-types.ts) that keep undici from loading: LightHeaders gives
 * what a WHATWG Headers gives for the same operations (each row runs on both, side by side), and
 * LightResponse reads its body as a Response does.
 */
import { describe, expect, it } from 'vitest';
import {
  LightHeaders,
  type LightHeadersInit,
  LightResponse,
  RealFormData,
  RealResponse,
  type WebHeaders,
  type WebResponse,
} from '../../../src/providers/web-types.js';

type HeadersClass = new (init?: LightHeadersInit) => WebHeaders & { getSetCookie(): string[] };

/** Everything a headers object shows, or the class of the error an operation threw. */
function observe(Class: HeadersClass, operation: (H: HeadersClass) => WebHeaders | unknown): unknown {
  try {
    const result = operation(Class);
    if (!(result instanceof Class)) return { result };
    const headers = result as WebHeaders & { getSetCookie(): string[] };
    const each: unknown[] = [];
    const self = {};
    headers.forEach(function (this: unknown, value, name, parent) {
      each.push([value, name, parent === headers, this === self]);
    }, self);
    return {
      entries: [...headers],
      listed: [...headers.entries()],
      keys: [...headers.keys()],
      values: [...headers.values()],
      each,
      cookies: headers.getSetCookie(),
    };
  } catch (error) {
    return { threw: (error as Error).constructor.name };
  }
}

const real = Headers as unknown as HeadersClass;
const cases: Array<[string, (H: HeadersClass) => unknown]> = [
  ['no init', (H) => new H()],
  ['a record, names in any case', (H) => new H({ 'Content-Type': 'a/b', ACCEPT: '*/*', 'x-b': '1' })],
  [
    'pairs with repeated names',
    (H) =>
      new H([
        ['X-A', '1'],
        ['b', '2'],
        ['x-a', '3'],
      ]),
  ],
  [
    'a real Headers',
    (H) =>
      new H(
        new Headers([
          ['Z', '1'],
          ['a', '2'],
          ['a', '3'],
        ]),
      ),
  ],
  ['a LightHeaders', (H) => new H(new LightHeaders({ Z: '1', a: '2' }))],
  ['pairs as iterables', (H) => new H(new Map([['a', '1']]))],
  ['values trimmed of HTTP spaces', (H) => new H({ a: ' \t v  w\r\n', b: '' })],
  ['a record value that is a list', (H) => new H({ a: ['x', 'y'] })],
  ['null', (H) => new H(null as unknown as LightHeadersInit)],
  ['a number', (H) => new H(5 as unknown as LightHeadersInit)],
  ['a string', (H) => new H('ab' as unknown as LightHeadersInit)],
  ['a pair of three', (H) => new H([['a', '1', '2']])],
  ['a pair of one', (H) => new H([['a']])],
  [
    'append joins',
    (H) =>
      withOps(H, (h) => {
        h.append('A', '1');
        h.append('a', '2');
        h.append('a', '');
      }),
  ],
  [
    'set replaces',
    (H) =>
      withOps(H, (h) => {
        h.append('a', '1');
        h.append('a', '2');
        h.set('A', '3');
      }),
  ],
  [
    'delete in any case',
    (H) =>
      withOps(H, (h) => {
        h.set('a', '1');
        h.set('b', '2');
        h.delete('A');
      }),
  ],
  [
    'get joined, missing null',
    (H) =>
      getAll(
        new H([
          ['A', '1'],
          ['a', '2'],
        ]),
        ['a', 'A', 'b'],
      ),
  ],
  ['has in any case', (H) => ['a', 'A', 'b'].map((name) => new H({ a: '1' }).has(name))],
  [
    'set-cookie kept apart',
    (H) =>
      new H([
        ['Set-Cookie', 'a=1'],
        ['set-cookie', 'b=2'],
        ['x', '1'],
      ]),
  ],
  [
    'set-cookie read joined',
    (H) =>
      getAll(
        new H([
          ['set-cookie', 'a=1'],
          ['set-cookie', 'b=2'],
        ]),
        ['set-cookie'],
      ),
  ],
  ['an invalid name to append', (H) => new H().append('bad name', 'v')],
  ['an invalid name to get', (H) => new H().get('a:b')],
  ['an invalid name to has', (H) => new H().has('')],
  ['a value with a line break', (H) => new H().append('a', 'x\ny')],
  ['a value with NUL', (H) => new H().set('a', 'x\0y')],
  ['a value past latin-1', (H) => new H().append('a', '\u0100')],
  ['a latin-1 value', (H) => getAll(new H({ a: 'é' }), ['a'])],
  ['names sorted by code unit', (H) => new H({ b: '1', a: '2', 'a-b': '3', _: '4', A1: '5' })],
];

function withOps(H: HeadersClass, ops: (headers: WebHeaders) => unknown): WebHeaders {
  const headers = new H();
  ops(headers);
  return headers;
}

function getAll(headers: WebHeaders, names: string[]): Array<string | null> {
  return names.map((name) => headers.get(name));
}

describe('LightHeaders', () => {
  it.each(cases)('%s: as a WHATWG Headers', (_name, operation) => {
    expect(observe(LightHeaders, operation)).toEqual(observe(real, operation));
  });

  it('a real Headers passes its instanceof (the SDK checks a caller’s headers with it); a plain object does not', () => {
    expect(new Headers() instanceof LightHeaders).toBe(true);
    expect(new LightHeaders() instanceof LightHeaders).toBe(true);
    expect({ entries: () => [] } instanceof LightHeaders).toBe(false);
    expect({ [Symbol.toStringTag]: 'Headers' } instanceof LightHeaders).toBe(false);
    expect((null as unknown) instanceof LightHeaders).toBe(false);
  });

  it('a real fetch sends it as the headers it holds', async () => {
    const request = new Request('http://127.0.0.1/', {
      headers: new LightHeaders({
        Authorization: 'Bearer k',
        'X-A': '1',
      }) as unknown as RequestInit['headers'],
    });
    expect([...request.headers]).toEqual([
      ['authorization', 'Bearer k'],
      ['x-a', '1'],
    ]);
  });
});

describe('RealFormData and RealResponse', () => {
  it('instanceof holds for a real instance only; new builds the real type', () => {
    expect(new FormData() instanceof RealFormData).toBe(true);
    expect(new Response('x') instanceof RealResponse).toBe(true);
    for (const value of [
      {},
      'text',
      null,
      undefined,
      new URLSearchParams(),
      { [Symbol.toStringTag]: 'FormData' },
    ])
      expect(value instanceof RealFormData).toBe(false);
    expect(new LightResponse(null, { status: 200 }) instanceof RealResponse).toBe(false);
    expect(new RealFormData()).toBeInstanceOf(FormData);
  });
});

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

const bytes = (text: string) => new Uint8Array(Buffer.from(text));

describe('LightResponse', () => {
  const bodies: Array<[string, () => Uint8Array[]]> = [
    ['JSON in two chunks', () => [bytes('{"a":'), bytes('[1,"é"]}')]],
    ['a character split across chunks', () => [bytes('"é').subarray(0, 2), bytes('é"').subarray(1)]],
    ['a byte order mark first', () => [new Uint8Array([0xef, 0xbb, 0xbf]), bytes('"hi"')]],
    ['nothing', () => []],
  ];

  it.each(bodies)('reads %s as a Response does: text, json, arrayBuffer', async (_name, chunks) => {
    const read = async (make: (body: ReadableStream<Uint8Array>) => WebResponse) => ({
      text: await make(streamOf(chunks())).text(),
      json: await make(streamOf(chunks()))
        .json()
        .catch((error: Error) => error.constructor.name),
      bytes: [...new Uint8Array(await make(streamOf(chunks())).arrayBuffer())],
    });
    const light = await read((body) => new LightResponse(body, { status: 200 }));
    expect(light).toEqual(await read((body) => new Response(body, { status: 200 })));
  });

  it('is ok for 2xx only, keeps status, status text, headers and URL', () => {
    const headers = new LightHeaders({ 'content-type': 'text/event-stream' });
    const oks = [199, 200, 299, 300, 404].map(
      (status) => new LightResponse(null, { status, headers, statusText: 'S', url: 'http://h/v1' }),
    );
    expect(oks.map((response) => response.ok)).toEqual([false, true, true, false, false]);
    expect(oks[1]?.statusText).toBe('S');
    expect(oks[1]?.url).toBe('http://h/v1');
    expect(oks[1]?.headers.get('Content-Type')).toBe('text/event-stream');
  });

  it('a body is read once: bodyUsed after, a second read fails as a Response’s does', async () => {
    const response = new LightResponse(streamOf([bytes('x')]), { status: 200 });
    expect(response.bodyUsed).toBe(false);
    expect(await response.text()).toBe('x');
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toBeInstanceOf(TypeError);
    const used = new Response('x');
    await used.text();
    await expect(used.text()).rejects.toBeInstanceOf(TypeError);
  });

  it('a null body reads as empty and exposes null', async () => {
    const response = new LightResponse(null, { status: 204 });
    expect(response.body).toBeNull();
    expect(await response.text()).toBe('');
  });

  it('a body that errors rejects the read with that error', async () => {
    const error = new Error('an HTML page');
    const body = new ReadableStream<Uint8Array>({ start: (controller) => controller.error(error) });
    await expect(new LightResponse(body, { status: 200 }).text()).rejects.toBe(error);
  });
});
