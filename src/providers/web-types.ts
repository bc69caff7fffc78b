/**
 * Light stand-ins for the fetch types on the model request's path. On Node 20 the globals
 * `Headers`, `Response`, `Request` and `FormData` are lazy getters that load Node's whole fetch
 * stack (undici) on first access: ~15 ms of CPU at every start, for a request that our own
 * transport (http-transport.ts) sends with node:http anyway. The transport builds its headers and
 * responses with these classes, and the bundle hands them to the openai SDK in place of those
 * globals (scripts/bundle-plugins/light-web-globals.mjs). They hold what the SDK and our code use,
 * with the WHATWG semantics of that part; a real `Headers` or `Response` still works where one is
 * passed in.
 */

/** The part of a `Headers` the transport and the SDK use; real `Headers` and `LightHeaders` have it. */
export interface WebHeaders extends Iterable<[string, string]> {
  get(name: string): string | null;
  has(name: string): boolean;
  set(name: string, value: string): void;
  append(name: string, value: string): void;
  delete(name: string): void;
  forEach(callback: (value: string, name: string, parent: WebHeaders) => void, thisArg?: unknown): void;
  entries(): IterableIterator<[string, string]>;
  keys(): IterableIterator<string>;
  values(): IterableIterator<string>;
}

/** The part of a `Response` the SDK and request-watch.ts read; real `Response` and `LightResponse` have it. */
export interface WebResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly url: string;
  readonly headers: WebHeaders;
  readonly body: ReadableStream<Uint8Array> | null;
  readonly bodyUsed: boolean;
  text(): Promise<string>;
  json(): Promise<unknown>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export type LightHeadersInit =
  | Iterable<readonly [string, string] | readonly string[]>
  | Record<string, string | readonly string[]>;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const EDGE_SPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const NOT_A_VALUE = /[\0\n\r]|[^\0-\xff]/;
const tag = (value: unknown) => Object.prototype.toString.call(value);

/**
 * WHATWG `Headers` without undici: names lowercased and validated, values trimmed and validated,
 * repeated names joined with ", " (each `set-cookie` kept apart), iteration sorted by name.
 * `instanceof LightHeaders` also holds for a real `Headers` (the SDK's `instanceof Headers` checks
 * become this one in the bundle and must accept a caller's `Headers`).
 */
export class LightHeaders implements WebHeaders {
  readonly #values = new Map<string, string[]>();

  constructor(init?: LightHeadersInit) {
    if (init === undefined) return;
    if (typeof init !== 'object' || init === null)
      throw new TypeError('Headers constructor: expected a sequence of pairs or a record');
    if (Symbol.iterator in init) {
      for (const item of init as Iterable<Iterable<string>>) {
        const pair = Array.isArray(item) ? item : [...item];
        if (pair.length !== 2)
          throw new TypeError(
            `Headers constructor: expected name/value pair to be length 2, found ${pair.length}.`,
          );
        this.append(String(pair[0]), String(pair[1]));
      }
    } else {
      for (const [name, value] of Object.entries(init)) this.append(name, String(value));
    }
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return false;
    // A real Headers exists only once undici is loaded: the global is then free to touch.
    return #values in value || (tag(value) === '[object Headers]' && value instanceof globalThis.Headers);
  }

  append(name: string, value: string): void {
    const key = headerName(name);
    const list = this.#values.get(key);
    const normalized = headerValue(value, name);
    if (!list) this.#values.set(key, [normalized]);
    else list.push(normalized);
  }

  set(name: string, value: string): void {
    this.#values.set(headerName(name), [headerValue(value, name)]);
  }

  delete(name: string): void {
    this.#values.delete(headerName(name));
  }

  get(name: string): string | null {
    return this.#values.get(headerName(name))?.join(', ') ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(headerName(name));
  }

  getSetCookie(): string[] {
    return [...(this.#values.get('set-cookie') ?? [])];
  }

  forEach(callback: (value: string, name: string, parent: LightHeaders) => void, thisArg?: unknown): void {
    for (const [name, value] of this) callback.call(thisArg, value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.#values.keys()].sort()) {
      const list = this.#values.get(name) ?? [];
      if (name === 'set-cookie') for (const value of list) yield [name, value];
      else yield [name, list.join(', ')];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

function headerName(name: string): string {
  const text = String(name);
  if (!TOKEN.test(text)) throw new TypeError(`Headers: "${text}" is an invalid header name.`);
  return text.toLowerCase();
}

function headerValue(value: string, name: string): string {
  const text = String(value).replace(EDGE_SPACE, '');
  if (NOT_A_VALUE.test(text)) throw new TypeError(`Headers: invalid value for header "${name}".`);
  return text;
}

/** A response as the SDK reads it, over a web stream: no undici behind it. */
export class LightResponse implements WebResponse {
  readonly status: number;
  readonly statusText: string;
  readonly url: string;
  readonly headers: WebHeaders;
  readonly body: ReadableStream<Uint8Array> | null;
  #read = false;

  constructor(
    body: ReadableStream<Uint8Array> | null,
    init: { status: number; statusText?: string; headers?: WebHeaders; url?: string },
  ) {
    this.body = body;
    this.status = init.status;
    this.statusText = init.statusText ?? '';
    this.headers = init.headers ?? new LightHeaders();
    this.url = init.url ?? '';
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  /** Read by text()/json()/arrayBuffer(), or its stream held by a reader. */
  get bodyUsed(): boolean {
    return this.#read || (this.body?.locked ?? false);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    if (this.bodyUsed) throw new TypeError('Body is unusable: Body has already been read');
    this.#read = true;
    if (!this.body) return new ArrayBuffer(0);
    const chunks: Uint8Array[] = [];
    const reader = this.body.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    const bytes = Buffer.concat(chunks);
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.arrayBuffer());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}

/**
 * For the SDK's `instanceof FormData` / `instanceof Response` / `instanceof ReadableStream` (every
 * JSON body is tested against FormData and ReadableStream): true only for a real instance, found
 * without touching the global unless the value carries that type's tag (no real one exists before
 * undici, or Node's web streams, load). `new` builds the real type.
 */
function realOnly(name: 'FormData' | 'Response' | 'ReadableStream') {
  const real = () => globalThis[name] as unknown as new (...args: unknown[]) => object;
  return class {
    constructor(...args: unknown[]) {
      // biome-ignore lint/correctness/noConstructorReturn: `new FormData()` in the SDK gets the real one.
      return Reflect.construct(real(), args);
    }

    static [Symbol.hasInstance](value: unknown): boolean {
      return tag(value) === `[object ${name}]` && value instanceof real();
    }
  };
}

export const RealFormData = realOnly('FormData');
export const RealResponse = realOnly('Response');
export const RealReadableStream = realOnly('ReadableStream');
