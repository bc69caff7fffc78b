/**
 * The reason a router (OpenRouter) relays for a failure: its own message is generic ("Provider
 * returned error"), the upstream provider's words are in `error.metadata.raw` (plain text, or that
 * provider's JSON error body) and its name in `metadata.provider_name`. Both come from a third
 * party, untrusted: each is made one visible line (control characters shown) and cut to a bound
 * before it joins the error the person sees, on any face.
 */
import { cutTo } from '../util/compact-text.js';
import { visibleLine } from '../util/terminal-text.js';

const REASON_CHARS = 300;
const NAME_CHARS = 60;
/** A raw body longer than this is not parsed as JSON, only cut. */
const PARSE_CHARS = 64 * 1024;

/** ` — <provider>: <reason>` to append to the router's message, or '' when it relays none. */
export function upstreamReason(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const metadata = (error as { metadata?: unknown }).metadata;
  if (typeof metadata !== 'object' || metadata === null) return '';
  const { raw, provider_name: name } = metadata as { raw?: unknown; provider_name?: unknown };
  const provider = typeof name === 'string' && name.trim() !== '' ? shown(name, NAME_CHARS) : undefined;
  const reason = rawReason(raw);
  if (reason === undefined) return provider === undefined ? '' : ` — from ${provider}`;
  return ` — ${provider ?? 'upstream'}: ${shown(reason, REASON_CHARS)}`;
}

/** The upstream message: the `message` of a JSON error body, else the text itself. */
function rawReason(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  const text = raw.trim();
  if (text.length > PARSE_CHARS || !text.startsWith('{')) return text;
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    const inner = typeof body.error === 'object' && body.error !== null ? body.error : body;
    const message = (inner as { message?: unknown }).message;
    if (typeof message === 'string' && message.trim() !== '') return message;
    return typeof body.error === 'string' && body.error.trim() !== '' ? body.error : text;
  } catch {
    return text;
  }
}

/** One visible line of at most `limit` characters. */
function shown(text: string, limit: number): string {
  return cutTo(visibleLine(text.replace(/\s+/gu, ' ').trim()), limit);
}
