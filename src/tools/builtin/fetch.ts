/**
 * fetch: one HTTP(S) GET to a public address (or an allowed host), same-host redirects followed,
 * HTML turned into plain text, bounded in time (15 s with the caller's cancel) and in size (what is
 * read and what the model is shown). The guarded network part is in fetch-request.ts.
 */
import type { Readable } from 'node:stream';
import { FetchAllowList } from '../../util/network.js';
import * as z from '../../util/schema.js';
import { truncate } from '../../util/text.js';
import { toolArguments } from '../arguments.js';
import { type Tool, ToolError } from '../types.js';
import { looksBinary } from './args.js';
import {
  BlockedAddressError,
  type FetchedResponse,
  guardedGet,
  MAX_REDIRECTS,
  type Resolver,
  systemResolver,
} from './fetch-request.js';

export const FETCH_TIMEOUT_MS = 15_000;
export const FETCH_OUTPUT_LIMIT = 2000;
/** Bytes read from a body at most; a page is shown cut to 2000 chars anyway. */
export const FETCH_MAX_BODY_BYTES = 5 * 1024 * 1024;

export interface FetchToolOptions {
  /** Defaults to FETCH_TIMEOUT_MS; tests shorten it. */
  timeoutMs?: number;
  /** `fetch.allowHosts` from GeekAgent.json: hosts that may be private (see permissions/network.ts). */
  allowHosts?: readonly string[];
  /** Name resolution; defaults to the system's (tests inject answers). */
  resolve?: Resolver;
}

const HTML_OPTIONS = {
  wordwrap: false as const,
  selectors: [
    { selector: 'img', format: 'skip' },
    { selector: 'a', options: { ignoreHref: true } },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
  ],
};

const fetchArgs = toolArguments('fetch', () =>
  z.object({ url: z.string().check(z.describe('Absolute http:// or https:// URL.')) }),
);

export function createFetchTool(options: FetchToolOptions = {}): Tool {
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const allow = new FetchAllowList(options.allowHosts ?? []);
  const resolve = options.resolve ?? systemResolver;
  return {
    name: 'fetch',
    description:
      'Fetches a web page or text resource over http or https and returns its text: HTML is converted to plain ' +
      `text. The first line is "<final url> (HTTP <status>)"; the text is cut to ${FETCH_OUTPUT_LIMIT} chars. ` +
      `Redirects within the same host are followed (at most ${MAX_REDIRECTS}); a redirect to another host is reported, not followed. ` +
      'Private network addresses (localhost, 10.x, 192.168.x, cloud metadata, …) are refused unless the user allowed them. ' +
      `Times out after ${timeoutMs / 1000} s. Non-text responses (images, archives) are described, not returned.`,
    get parameters() {
      return fetchArgs.parameters;
    },
    async describeApproval(args) {
      const { url } = fetchArgs.parse(args);
      return { title: 'About to fetch a URL', detail: url, kind: 'url' };
    },
    async run(args, ctx) {
      const { url } = fetchArgs.parse(args);
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new ToolError(`fetch: not a valid URL: ${url}`);
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        throw new ToolError('fetch: only http and https URLs are supported');
      }
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = AbortSignal.any([ctx.signal, timeout]);
      const failure = (error: unknown): ToolError => {
        if (ctx.signal.aborted) return new ToolError('fetch: cancelled');
        if (timeout.aborted)
          return new ToolError(`fetch: cannot reach ${url}: timed out after ${timeoutMs / 1000} s`);
        if (error instanceof ToolError) return error;
        return new ToolError(`fetch: cannot reach ${url}: ${networkReason(error)}`);
      };

      let response: FetchedResponse;
      try {
        const outcome = await guardedGet(parsed, { signal, allow, resolve, accept: ACCEPT });
        if (outcome.kind === 'redirect') {
          return `${outcome.from.href} (HTTP ${outcome.status})\nredirected to ${outcome.to} (${outcome.reason})`;
        }
        response = outcome.response;
      } catch (error) {
        // A refusal is the policy speaking, whatever the timers did meanwhile.
        if (error instanceof BlockedAddressError) throw error;
        throw failure(error);
      }
      const contentType = response.header('content-type') ?? '';
      const mime = contentType.split(';')[0]!.trim().toLowerCase();
      const declaredLength = Number(response.header('content-length') ?? Number.NaN);
      if (mime !== '' && !isTextType(mime) && Number.isFinite(declaredLength)) {
        // The size is all the model gets; no need to download the thing.
        response.body.destroy();
        throw notText(url, contentType, `${declaredLength} bytes`);
      }
      let body: BodyBytes;
      try {
        body = await readBody(response.body, FETCH_MAX_BODY_BYTES);
      } catch (error) {
        throw failure(error);
      }
      // No content type: trust the bytes, as browsers sniff.
      if (mime === '' ? looksBinary(body.bytes) : !isTextType(mime)) {
        const size = body.complete ? `${body.bytes.length} bytes` : `more than ${body.bytes.length} bytes`;
        throw notText(url, contentType, size);
      }
      const raw = decode(body.bytes, contentType);
      // Loaded on the first HTML page: most runs never fetch one (start-up, issue 18).
      const text = isHtml(mime) ? (await import('html-to-text')).convert(raw, HTML_OPTIONS) : raw;
      const lines = [`${response.url.href} (HTTP ${response.status})`];
      // Redacted before the cut: a secret cut in half would not be recognised afterwards.
      lines.push(text.trim() === '' ? '(empty body)' : truncate(text, FETCH_OUTPUT_LIMIT, ctx.redact));
      if (!body.complete) lines.push(`(only the first ${FETCH_MAX_BODY_BYTES} bytes of the body were read)`);
      return lines.join('\n');
    },
  };
}

const ACCEPT = 'text/html, text/plain;q=0.9, application/json;q=0.9, */*;q=0.5';

interface BodyBytes {
  bytes: Uint8Array;
  /** False when the body was longer than the cap and reading stopped. */
  complete: boolean;
}

async function readBody(body: Readable, cap: number): Promise<BodyBytes> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > cap) {
      body.destroy();
      return { bytes: Buffer.concat(chunks).subarray(0, cap), complete: false };
    }
  }
  return { bytes: Buffer.concat(chunks), complete: true };
}

function notText(url: string, contentType: string, size: string): ToolError {
  return new ToolError(`fetch: ${url} returned ${contentType || 'no content type'} (${size}), not text`);
}

function isHtml(mime: string): boolean {
  return mime === 'text/html' || mime === 'application/xhtml+xml';
}

function isTextType(mime: string): boolean {
  return (
    mime.startsWith('text/') ||
    mime.endsWith('+json') ||
    mime.endsWith('+xml') ||
    ['application/json', 'application/xml', 'application/javascript', 'application/x-javascript'].includes(
      mime,
    )
  );
}

/** Decodes with the declared charset when the runtime knows it, else UTF-8. */
function decode(bytes: Uint8Array, contentType: string): string {
  const charset = /charset="?([^";\s]+)/i.exec(contentType)?.[1];
  if (charset) {
    try {
      return new TextDecoder(charset).decode(bytes);
    } catch {
      // Unknown label: fall through to UTF-8.
    }
  }
  return new TextDecoder('utf-8').decode(bytes);
}

/** Node's errors say it plainly (`connect ECONNREFUSED …`); some keep the useful part in `cause`. */
function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error && cause.message) return cause.message;
  if (cause && typeof cause === 'object' && 'code' in cause) return String(cause.code);
  return error.message;
}
