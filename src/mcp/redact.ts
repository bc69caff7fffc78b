/**
 * What one server's error messages and log lines must never show, and the one function that hides
 * it. Errors from the SDK, fetch/undici and spawn quote what they were given: the expanded command
 * path, a URL with `user:password@` or `?key=...`, a header's value. Each value a `${VAR}` of the
 * server's entry took from the environment becomes `${VAR}` again (the entry as written, so the
 * message still reads and points at the fix); the URL's userinfo and query, and header values
 * written out in the file, become `***`. Built once per server (server-slot.ts) and handed to its
 * connection and its log: no list kept anywhere else.
 */
import { looksSecret, noRedaction, type Redactor, redactorOf } from '../util/redact.js';
import { splitUrlText } from '../util/url-text.js';
import type { McpServerDefinition } from './server-definition.js';

/** What stands for a URL's userinfo or query, or a header value, in a message. */
export const HIDDEN = '***';

/**
 * The redactor of one server: `base` (the run's, which hides secret-named environment variables
 * everywhere as `[REDACTED:NAME]`) with this server's own values added. Where both hide a value,
 * the run's mark stays: a secret reads the same in the server's log as everywhere else.
 */
export function serverRedactor(definition: McpServerDefinition, base: Redactor = noRedaction()): Redactor {
  const own = serverMarks(definition);
  if (own.size === 0) return base;
  const marks = new Map(base.marks);
  for (const [value, mark] of own) if (!marks.has(value)) marks.set(value, mark);
  return redactorOf(marks);
}

/** Each value of the definition to hide, with what replaces it. */
export function serverMarks(definition: McpServerDefinition): Map<string, string> {
  const marks = new Map<string, string>();
  const add = (value: string, mark: string) => {
    // The server's own name is in the file and in every message about it: never a secret.
    if (looksSecret(value) && value !== definition.name && !marks.has(value)) marks.set(value, mark);
  };
  // Longest first is the matcher's business (util/redact.ts): a URL's userinfo that holds a
  // ${VAR}'s value is replaced whole.
  for (const { variable, value } of definition.fromEnv ?? []) {
    const mark = `\${${variable}}`;
    add(value, mark);
    // As a URL or a query string quotes it (a token with "/" or "+", a path with spaces).
    add(encodeURI(value), mark);
    add(encodeURIComponent(value), mark);
  }
  if (definition.transport === 'http' || definition.transport === 'sse') {
    for (const part of urlSecrets(definition.url)) add(part, HIDDEN);
    const taken = (definition.fromEnv ?? []).map((entry) => entry.value).filter(looksSecret);
    for (const value of Object.values(definition.headers)) {
      // A header built from ${VAR}s is hidden by them (`Bearer ${TOKEN}` reads better than ***).
      if (!taken.some((secret) => value.includes(secret))) add(value, HIDDEN);
    }
  }
  return marks;
}

/**
 * The userinfo, the query and the fragment of a URL, as written (util/url-text.ts), the first two
 * also as the URL parser (and so fetch's messages) spells them, and each query value and the
 * password alone: an error may quote any.
 */
export function urlSecrets(url: string): string[] {
  const parts: string[] = [];
  const { userinfo, query, fragment } = splitUrlText(url);
  for (const part of [userinfo, query, fragment]) if (part) parts.push(part);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return parts;
  }
  if (parsed.username || parsed.password) {
    parts.push(parsed.password ? `${parsed.username}:${parsed.password}` : parsed.username);
    if (parsed.password) parts.push(parsed.password, decodeOrSelf(parsed.password));
  }
  if (parsed.search.length > 1) {
    parts.push(parsed.search.slice(1));
    for (const [, value] of parsed.searchParams) parts.push(value, encodeURIComponent(value));
  }
  return parts;
}

function decodeOrSelf(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
