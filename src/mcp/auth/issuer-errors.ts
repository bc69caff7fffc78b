/**
 * The SDK's issuer checks, said for the person: an authorization response whose `iss` is not the
 * issuer the login went to (RFC 9207 — a mix-up attack, or a misconfigured server), metadata that
 * names another issuer than the one it was fetched for (RFC 8414 §3.3), a callback that comes
 * back from another authorization server than the one the login began at. Each names the server
 * and both issuers and refuses the login (`LoginRefusedError`, so the server shows `needs_auth`).
 * A received issuer is attacker-controllable: shown only as a sanitised, shortened URL.
 */
import {
  AuthorizationServerMismatchError,
  IssuerMismatchError,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { visibleLine } from '../../util/terminal-text.js';

export class LoginRefusedError extends UnauthorizedError {}

const MAX_SHOWN = 120;

/** An issuer as shown: its URL without query or fragment, sanitised and cut; anything else: not a URL. */
export function shownIssuer(issuer: string | undefined): string {
  if (issuer === undefined) return '(none)';
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return '(not a URL)';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return '(not an http(s) URL)';
  const text = visibleLine(`${url.origin}${url.pathname === '/' ? '' : url.pathname}`);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}

/** The message for an issuer check the SDK failed, or undefined for any other error. */
export function issuerRefusal(server: string, error: unknown): LoginRefusedError | undefined {
  const again = `run geekagent mcp login ${server} again; if it repeats, the server's authorization setup is wrong or someone is interfering`;
  if (error instanceof IssuerMismatchError && error.kind === 'authorization_response') {
    const expected = shownIssuer(error.expected);
    const what =
      error.received === undefined
        ? `the authorization response carried no iss, though issuer ${expected} says it sends one`
        : `the authorization response came from issuer ${shownIssuer(error.received)}, but the login went to issuer ${expected}`;
    return new LoginRefusedError(
      `login to ${server} refused: ${what} (RFC 9207); nothing was stored — ${again}`,
    );
  }
  if (error instanceof IssuerMismatchError) {
    return new LoginRefusedError(
      `login to ${server} refused: the authorization server metadata fetched for issuer ${shownIssuer(error.expected)} names issuer ${shownIssuer(error.received)} (RFC 8414 §3.3)`,
    );
  }
  if (error instanceof AuthorizationServerMismatchError) {
    return new LoginRefusedError(
      `login to ${server} refused: it began at issuer ${shownIssuer(error.recordedIssuer)} but came back to issuer ${shownIssuer(error.currentIssuer)} — ${again}`,
    );
  }
  return undefined;
}
