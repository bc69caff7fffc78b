/**
 * A URL's text cut where credentials can sit: its userinfo (`user:password@`), query and fragment.
 * Text, not `new URL`: a URL as written in a config file may hold `${VAR}` and not parse. What the
 * MCP views show, mask and redact of a URL (mcp/settings-view.ts, mcp/describe.ts, mcp/redact.ts)
 * all cut it here, so they agree on where each part starts.
 */
export interface UrlText {
  /** `scheme://`, or '' when the text has none. */
  scheme: string;
  /** What comes before the authority's last `@`, without it. */
  userinfo?: string;
  /** Host and path: the rest up to the query or the fragment. */
  address: string;
  /** After the first `?` that is not in the fragment, without it. */
  query?: string;
  /** After the first `#`, without it. */
  fragment?: string;
}

export function splitUrlText(url: string): UrlText {
  const hash = url.indexOf('#');
  const beforeHash = hash >= 0 ? url.slice(0, hash) : url;
  const question = beforeHash.indexOf('?');
  const base = question >= 0 ? beforeHash.slice(0, question) : beforeHash;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(base)?.[0] ?? '';
  const rest = base.slice(scheme.length);
  const userinfo = scheme ? /^([^/]*)@/.exec(rest) : null;
  const parts: UrlText = { scheme, address: userinfo ? rest.slice(userinfo[0].length) : rest };
  if (userinfo) parts.userinfo = userinfo[1] ?? '';
  if (question >= 0) parts.query = beforeHash.slice(question + 1);
  if (hash >= 0) parts.fragment = url.slice(hash + 1);
  return parts;
}

/** The text again from its parts (the inverse of splitUrlText). */
export function joinUrlText(parts: UrlText): string {
  return (
    parts.scheme +
    (parts.userinfo !== undefined ? `${parts.userinfo}@` : '') +
    parts.address +
    (parts.query !== undefined ? `?${parts.query}` : '') +
    (parts.fragment !== undefined ? `#${parts.fragment}` : '')
  );
}
