/**
 * The model client's transport: a `fetch` for the openai SDK that sends each request with
 * node:http / node:https (HTTP/1.1, pooled keep-alive connections) and answers with what the SDK
 * reads of a `Response`. Why not the global fetch: on Node 20 undici's dispatcher (connection pool, llhttp
 * wasm) loads and warms on the first request, ~25 ms of every `geekagent -p` before the request
 * leaves (bench row S1), and each streamed chunk then passed through two web-stream layers. Its
 * headers and responses are the light types of web-types.ts, so that undici is not loaded at all.
 * Bodies it does not know (form data, streams) still go through the global fetch, inspected alike.
 */
import http from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { LightHeaders, type LightHeadersInit, LightResponse, type WebResponse } from './web-types.js';

/**
 * Free keep-alive connections are closed after this long: before servers drop them (often 5 s).
 * Node unrefs a free connection, so none keeps the process alive.
 */
const FREE_SOCKET_MS = 4_000;
/** Statuses whose response has no body (as the Response constructor would have it). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** Sees every chunk of a response body before the SDK does; throwing ends the body with that error. */
export type ChunkInspector = (chunk: Uint8Array) => void;

export class HttpTransport {
  #http: http.Agent | undefined;
  #https: HttpsAgent | undefined;

  /** Like `fetch(input, init)`, with `inspect` called for each body chunk. */
  async fetch(
    input: string | URL | Request,
    init: RequestInit = {},
    inspect?: ChunkInspector,
  ): Promise<WebResponse> {
    const body = init.body ?? undefined;
    // Not `instanceof Request`: touching that global loads undici.
    const url = typeof input === 'string' || input instanceof URL ? new URL(String(input)) : undefined;
    const known = body === undefined || typeof body === 'string' || body instanceof Uint8Array;
    if (!url || !known || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      return inspected(await globalThis.fetch(input, init), inspect);
    const message = await this.#send(url, init, body as string | Uint8Array | undefined);
    return toResponse(message, url, inspect);
  }

  #httpAgent(): http.Agent {
    this.#http ??= new http.Agent({ keepAlive: true, timeout: FREE_SOCKET_MS });
    return this.#http;
  }

  #httpsAgent(https: typeof import('node:https')): HttpsAgent {
    this.#https ??= new https.Agent({ keepAlive: true, timeout: FREE_SOCKET_MS });
    return this.#https;
  }

  async #send(
    url: URL,
    init: RequestInit,
    body: string | Uint8Array | undefined,
  ): Promise<http.IncomingMessage> {
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    const headers: Record<string, string> = {};
    new LightHeaders(init.headers as LightHeadersInit | undefined).forEach((value, name) => {
      headers[name] = value;
    });
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const secure = url.protocol === 'https:';
    // node:https (and TLS with it) is loaded only for an https endpoint.
    const https = secure ? (await import('node:https')).default : undefined;
    const agent = https ? this.#httpsAgent(https) : this.#httpAgent();
    const request = (https ?? http).request(url, { method: init.method ?? 'GET', headers, agent });
    return new Promise<http.IncomingMessage>((resolve, reject) => {
      const onAbort = () => request.destroy(abortError(signal));
      signal?.addEventListener('abort', onAbort, { once: true });
      request.once('response', (message) => {
        // From here the body's stream carries an abort (toResponse), not the request.
        signal?.removeEventListener('abort', onAbort);
        if (signal) {
          const endBody = () => message.destroy(abortError(signal));
          signal.addEventListener('abort', endBody, { once: true });
          message.once('close', () => signal.removeEventListener('abort', endBody));
        }
        resolve(message);
      });
      request.once('error', (error) => {
        signal?.removeEventListener('abort', onAbort);
        // As the global fetch does: the reason is the cause (`connect ECONNREFUSED …`).
        reject(signal?.aborted ? abortError(signal) : new TypeError('fetch failed', { cause: error }));
      });
      request.end(body);
    });
  }
}

function abortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
}

/** A response over the message: a pull stream, so a slow reader holds the socket back. */
function toResponse(
  message: http.IncomingMessage,
  url: URL,
  inspect: ChunkInspector | undefined,
): WebResponse {
  const status = message.statusCode ?? 0;
  const headers = new LightHeaders();
  const raw = message.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  // As fetch reports it: the URL without its fragment.
  const init = { status, statusText: message.statusMessage ?? '', headers, url: url.href.replace(/#.*/, '') };
  if (NULL_BODY.has(status)) {
    message.resume();
    return new LightResponse(null, init);
  }
  const iterator = message[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) {
          controller.close();
          return;
        }
        const chunk = new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength);
        inspect?.(chunk);
        controller.enqueue(chunk);
      } catch (error) {
        message.destroy();
        controller.error(error);
      }
    },
    cancel() {
      message.destroy();
    },
  });
  return new LightResponse(body, init);
}

/** The global fetch's response with `inspect` seeing each chunk, as `toResponse` does. */
function inspected(response: Response, inspect: ChunkInspector | undefined): Response {
  if (!inspect || !response.body) return response;
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        inspect(chunk);
        controller.enqueue(chunk);
      },
    }),
  );
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
