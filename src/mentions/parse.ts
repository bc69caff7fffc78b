/**
 * Finding what the person pointed at in their input: `@path` mentions (`@src/app.ts`,
 * `@"my notes.md"`, `@my\ notes.md`) and a pasted image path (the input alone, or its first word,
 * is a path — quoted, with escaped spaces or a `file://` URL, as terminals paste a dropped file).
 * Pure text work: whether a path exists is the caller's question.
 */
import os from 'node:os';

export interface MentionToken {
  /** As typed, `@` included (for notes). */
  raw: string;
  /** The path it names, unquoted and unescaped. */
  path: string;
  /** The same without trailing punctuation (`see @a.ts.`), tried when `path` does not exist. */
  trimmed: string;
}

/** `@` at the start or after whitespace, then a quoted path or a run of non-blanks (`\ ` kept). */
const MENTION = /(?<=^|\s)@(?:"([^"\n]+)"|'([^'\n]+)'|((?:\\ |[^\s])+))/g;
const TRAILING = /[.,;:!?)\]}'"]+$/;

export function findMentions(input: string): MentionToken[] {
  const out: MentionToken[] = [];
  for (const match of input.matchAll(MENTION)) {
    const quoted = match[1] ?? match[2];
    const path = quoted ?? unescapeShell(match[3] ?? '');
    if (path === '') continue;
    out.push({ raw: match[0], path, trimmed: quoted ? path : path.replace(TRAILING, '') });
  }
  return out;
}

/** `@server:uri` as the MCP extension reads it: the server name, when the token has that shape. */
export function resourceServerOf(token: MentionToken): string | undefined {
  return /^([A-Za-z0-9_.-]+):\S/.exec(token.path)?.[1];
}

/**
 * The path a pasted file would be: the whole input, or its first word when more follows (a path
 * pasted, then a question). Quotes, `\ ` escapes, `file://` and a leading `~/` are undone. Only
 * a word that looks like a path (has a `/` or an image extension) is returned.
 */
export function pastedPath(input: string, homeDir = os.homedir()): string | undefined {
  const text = input.trim();
  // A relative path is mentioned with `@`; what a terminal pastes for a dropped file starts so.
  if (!/^(\/|~\/|file:\/\/|['"])/.test(text)) return undefined;
  const word = firstWord(text);
  if (word === undefined) return undefined;
  let path = word;
  if (path.startsWith('file://')) {
    try {
      path = decodeURIComponent(new URL(path).pathname);
    } catch {
      return undefined;
    }
  }
  if (path.startsWith('~/')) path = `${homeDir}/${path.slice(2)}`;
  return /\.(png|jpe?g|gif|webp)$/i.test(path) ? path : undefined;
}

function firstWord(text: string): string | undefined {
  const quote = text[0];
  if (quote === '"' || quote === "'") {
    const end = text.indexOf(quote, 1);
    return end > 1 ? text.slice(1, end) : undefined;
  }
  const match = /^(?:\\ |[^\s])+/.exec(text);
  return match ? unescapeShell(match[0]) : undefined;
}

/** Shell-style escapes a terminal adds to a pasted path (`\ `, `\(`) become the characters. */
function unescapeShell(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}
