/**
 * Watches one model request at the byte level, through the `fetch` handed to the SDK (sent by
 * the run's HttpTransport): an idle timer (no bytes for `idleMs`, before or after the headers, ends
 * the request) and a check that a successful answer is an event stream, not an HTML page (a captive
 * portal, a base URL that lands on a website).
 */
import type { ChunkInspector, HttpTransport } from './http-transport.js';
import { ProviderError } from './types.js';
import { LightResponse, type WebResponse } from './web-types.js';

/** A monotonic clock in ms. Not `performance.now()`: its global loads Node's perf_hooks (~1 ms) on a start's first request. */
const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** `<` opens every HTML page and never starts a server-sent event stream. */
const LESS_THAN = 0x3c;

/** How a provider's page error names its endpoint. */
export interface EndpointWording {
  /** The base URL's variable (the provider spec's `env.baseURL`). */
  variable: string;
  /** What the endpoint should have answered with, e.g. `a chat completion stream`. */
  expected: string;
}

export class RequestWatch {
  #last = 0;
  #timer: NodeJS.Timeout | undefined;
  #timedOut = false;

  constructor(
    private readonly idleMs: number,
    private readonly baseURL: string,
    /** Called once when the request has been idle too long; the caller aborts it. */
    private readonly onIdle: () => void,
    private readonly transport: HttpTransport,
    /** Said when a web page answers: what was expected, and the variable the base URL came from. */
    private readonly page: EndpointWording,
  ) {}

  /** True once the idle timer fired. */
  get timedOut(): boolean {
    return this.#timedOut;
  }

  start(): void {
    this.#touch();
    this.#arm(this.idleMs);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /**
   * The stream, each chunk held back while `pace` has the face's output behind (ChatRequest.pace);
   * the idle timer stops meanwhile: the wait is ours, not the server's.
   */
  async *paced<T>(
    stream: AsyncIterable<T>,
    pace: (() => Promise<void> | undefined) | undefined,
  ): AsyncGenerator<T> {
    for await (const item of stream) {
      const wait = pace?.();
      if (wait) {
        this.stop();
        try {
          await wait;
        } finally {
          this.#touch();
          if (!this.#timedOut) this.#arm(this.idleMs);
        }
      }
      yield item;
    }
  }

  /** The error the person sees when the timer fired. */
  timeoutError(): ProviderError {
    return new ProviderError(
      `model request timed out: no data for ${seconds(this.idleMs)} s from ${this.baseURL} (GEEKAGENT_REQUEST_TIMEOUT)`,
    );
  }

  /** A `fetch` for the SDK: every byte received resets the idle timer; HTML answers fail. */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<WebResponse> => {
    this.#touch();
    let check: ChunkInspector | undefined;
    const response = await this.transport.fetch(input, init, (chunk) => {
      this.#touch();
      check?.(chunk);
    });
    this.#touch();
    if (!response.ok || !response.body) return response;
    const htmlError = () =>
      new ProviderError(
        `model endpoint ${this.baseURL} answered ${response.status} with an HTML page, not ${this.page.expected} — check ${this.page.variable}`,
        response.status,
      );
    if (isHtmlType(response.headers.get('content-type'))) {
      await response.body.cancel();
      return erroredResponse(response, htmlError());
    }
    check = (chunk) => {
      const first = chunk.find((byte) => !isSpace(byte));
      if (first === undefined) return;
      check = undefined;
      // No content type or a wrong one: the first byte still tells a page from a stream.
      if (first === LESS_THAN) throw htmlError();
    };
    return response;
  };

  #touch(): void {
    this.#last = monotonicMs();
  }

  // One timer re-armed for what is left, instead of a reset per chunk: chunks are many.
  #arm(delay: number): void {
    this.#timer = setTimeout(() => {
      const idle = monotonicMs() - this.#last;
      if (idle >= this.idleMs - 1) {
        this.#timedOut = true;
        this.#timer = undefined;
        this.onIdle();
        return;
      }
      this.#arm(this.idleMs - idle);
    }, delay);
  }
}

/** The response as it came, with a body that fails with `error` when read. */
function erroredResponse(response: WebResponse, error: Error): WebResponse {
  const body = new ReadableStream<Uint8Array>({ start: (controller) => controller.error(error) });
  return new LightResponse(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
    url: response.url,
  });
}

function isHtmlType(contentType: string | null): boolean {
  const mime = contentType?.split(';')[0]?.trim().toLowerCase();
  return mime === 'text/html' || mime === 'application/xhtml+xml';
}

function isSpace(byte: number): boolean {
  // BOM bytes count as space: a page may start with one.
  return [0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf].includes(byte);
}

function seconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(3)));
}
