/**
 * The network half of `fetch`: one guarded HTTP(S) GET. Every hop's host is checked against the
 * address policy (permissions/network.ts) and the connection goes to exactly the address that was
 * checked (the check runs inside the socket's DNS lookup), so DNS rebinding cannot swap it.
 * Same-host redirects are followed, re-checked, at most MAX_REDIRECTS times; a redirect to another
 * host comes back as a redirect for the model to decide on.
 *
 * node:https and node:dns/promises are imported when a request needs them: this module loads with
 * the tool definitions at every start, before the model's first request, which needs neither
 * (node:http and node:net load then anyway, with the model client).
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { PACKAGE_VERSION } from '../../config/version.js';
import { classifyAddress, type FetchAllowList, isPrivateName } from '../../util/network.js';
import { ToolError } from '../types.js';

export const MAX_REDIRECTS = 5;

/** Resolves a host name to every address it has (tests inject one). */
export type Resolver = (hostname: string, family: 0 | 4 | 6) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = async (hostname, family) =>
  (await import('node:dns/promises')).lookup(hostname, { all: true, family, verbatim: true });

export interface GuardedGetOptions {
  signal: AbortSignal;
  allow: FetchAllowList;
  resolve: Resolver;
  accept: string;
}

export interface FetchedResponse {
  url: URL;
  status: number;
  header(name: string): string | undefined;
  /** The body, content-encoding already undone. */
  body: Readable;
}

export type FetchOutcome =
  | { kind: 'response'; response: FetchedResponse }
  | { kind: 'redirect'; from: URL; status: number; to: string; reason: string };

/** A refusal by the address policy: its message is the tool's error for the model. */
export class BlockedAddressError extends ToolError {}

export async function guardedGet(start: URL, options: GuardedGetOptions): Promise<FetchOutcome> {
  let current = start;
  for (let hop = 0; ; hop++) {
    const response = await getOnce(current, options);
    const location = response.header('location');
    if (!isRedirect(response.status) || location === undefined || !URL.canParse(location, current.href)) {
      return { kind: 'response', response };
    }
    response.body.destroy();
    const next = new URL(location, current);
    const redirect = (reason: string): FetchOutcome => ({
      kind: 'redirect',
      from: current,
      status: response.status,
      to: next.href,
      reason,
    });
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      return redirect('not followed: only http and https URLs are supported');
    }
    // Another host is a new decision (and, under `ask`, a new question): the model makes it.
    if (next.hostname !== current.hostname) {
      return redirect('not followed: different host; fetch it if you trust it');
    }
    if (hop >= MAX_REDIRECTS) {
      throw new ToolError(`fetch: too many redirects (more than ${MAX_REDIRECTS}) from ${start.href}`);
    }
    current = next;
  }
}

async function getOnce(url: URL, options: GuardedGetOptions): Promise<FetchedResponse> {
  const secure = url.protocol === 'https:';
  const port = Number(url.port) || (secure ? 443 : 80);
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const byName = options.allow.allowsHost(hostname, port);
  if (!byName) refuseLiteral(url, hostname, port, options.allow);
  const transport = secure ? (await import('node:https')).default : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(url, {
      method: 'GET',
      headers: {
        accept: options.accept,
        'accept-encoding': 'gzip, deflate, br',
        'user-agent': `GeekAgent/${PACKAGE_VERSION}`,
      },
      signal: options.signal,
      // No pooled sockets: a reused connection would skip the address check.
      agent: false,
      lookup: byName ? undefined : checkedLookup(url, port, options),
    });
    request.on('error', reject);
    request.on('response', (message) => {
      resolve({
        url,
        status: message.statusCode ?? 0,
        header: (name) => headerValue(message, name),
        body: decoded(message),
      });
    });
    request.end();
  });
}

/** IP literals never reach a DNS lookup, so they are checked here; so are names private by definition. */
function refuseLiteral(url: URL, hostname: string, port: number, allow: FetchAllowList): void {
  if (isIP(hostname) !== 0) {
    const kind = classifyAddress(hostname);
    if (kind && !allow.allowsAddress(hostname, port)) {
      throw blocked(url, `${hostname} is a ${kind} address`, url.host);
    }
  } else if (isPrivateName(hostname)) {
    throw blocked(url, `${hostname} is a local name`, url.host);
  }
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/** A socket lookup that resolves, refuses if any address is not public, and connects to those checked. */
function checkedLookup(url: URL, port: number, options: GuardedGetOptions) {
  return (hostname: string, lookupOptions: LookupOptions, callback: LookupCallback): void => {
    const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
    options.resolve(hostname, family).then(
      (addresses) => {
        // Any private answer refuses the name: a mixed answer is how rebinding attacks start.
        for (const { address } of addresses) {
          const kind = classifyAddress(address);
          if (kind && !options.allow.allowsAddress(address, port)) {
            callback(blocked(url, `${hostname} resolves to ${address}, a ${kind} address`, url.host), '');
            return;
          }
        }
        const first = addresses[0];
        if (!first)
          callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
        else if (lookupOptions.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: Error) => callback(error, ''),
    );
  };
}

function blocked(url: URL, why: string, host: string): BlockedAddressError {
  return new BlockedAddressError(
    `fetch: refused ${url.href}: ${why}; private network addresses are blocked (to allow this host, add ` +
      `${JSON.stringify(host)} to "fetch": {"allowHosts": [...]} in .geekagent/GeekAgent.json)`,
  );
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

function headerValue(message: IncomingMessage, name: string): string | undefined {
  const value = message.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

function decoded(message: IncomingMessage): Readable {
  const encoding = headerValue(message, 'content-encoding')?.trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return message;
  // Errors surface when the body is read; the callback only keeps them from being unhandled.
  return pipeline(message, decoder, () => undefined);
}
