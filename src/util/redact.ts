/**
 * Secret redaction: values of env vars named like KEY/TOKEN/SECRET/PASSWORD become
 * `[REDACTED:NAME]` in anything shown to the model or a person (tool output, errors, prompts, logs).
 * Text that is cut to a length must be redacted before the cut (`head`), or a secret straddling
 * the cut would leave its prefix behind.
 */

export interface Redactor {
  (text: string): string;
  /**
   * `text` up to `end`, redacted; a secret that starts before `end` and runs past it is replaced
   * whole, so cutting never leaks a prefix. `text` must reach at least `reach` chars past `end`
   * wherever it was itself cut from something longer.
   */
  head(text: string, end: number): string;
  /** Length of the longest secret (0 when none): how far past a cut a secret can reach. */
  readonly reach: number;
  /** Each hidden value and what replaces it: a redactor with more values starts from these. */
  readonly marks: ReadonlyMap<string, string>;
}

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD/i;
/** Shorter values ("1", "on") occur everywhere: replacing them would wreck output, not hide secrets. */
export const MIN_SECRET_LENGTH = 4;
/** Below this, a value is only replaced as a whole word: "abcd" inside "abcdef" is not that secret. */
const WHOLE_WORD_BELOW = 6;
/** Switches, not secrets: `FOO_TOKEN_CACHE=true` must not turn every "true" in output into a mark. */
const NOT_SECRETS = new Set(['true', 'false', 'null', 'none', 'undefined', 'enabled', 'disabled', 'auto']);

export function createRedactor(env: NodeJS.ProcessEnv): Redactor {
  const marks = new Map<string, string>();
  // Sorted names: when two variables hold the same value, the label does not depend on env order.
  for (const name of Object.keys(env).sort()) {
    const value = env[name];
    if (!SECRET_NAME.test(name) || value === undefined || !looksSecret(value)) continue;
    if (!marks.has(value)) marks.set(value, `[REDACTED:${name}]`);
  }
  return redactorOf(marks);
}

/**
 * A redactor replacing each value of `marks` by its mark (values that do not look secret, too
 * short or a switch word, are left alone). The one matcher behind every redactor.
 */
export function redactorOf(given: ReadonlyMap<string, string>): Redactor {
  const marks = new Map([...given].filter(([value]) => looksSecret(value)));
  if (marks.size === 0) return noRedaction();

  // Longest first: alternation takes the first branch that matches, so a value containing another
  // is replaced whole. One combined regex: a text without secrets costs a single scan.
  const values = [...marks.keys()].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const source = values
    .map((value) => {
      const literal = escapeRegExp(value);
      return value.length < WHOLE_WORD_BELOW ? `(?<![\\p{L}\\p{N}])${literal}(?![\\p{L}\\p{N}])` : literal;
    })
    .join('|');
  const matcher = new RegExp(source, 'gu');
  const mark = (value: string) => marks.get(value) ?? '[REDACTED]';

  const redact = (text: string): string => text.replace(matcher, mark);
  const head = (text: string, end: number): string => {
    if (end >= text.length) return redact(text);
    let out = '';
    let last = 0;
    matcher.lastIndex = 0;
    for (let match = matcher.exec(text); match && match.index < end; match = matcher.exec(text)) {
      out += text.slice(last, match.index) + mark(match[0]);
      last = match.index + match[0].length;
    }
    return last < end ? out + text.slice(last, end) : out;
  };
  return Object.assign(redact, { head, reach: values[0]!.length, marks });
}

/** A redactor for code paths that have no secrets to hide (tests, tools run without an executor). */
export function noRedaction(): Redactor {
  return Object.assign((text: string) => text, {
    head: (text: string, end: number) => text.slice(0, end),
    reach: 0,
    marks: new Map<string, string>(),
  });
}

/** Long enough, and not a switch word: worth replacing wherever it occurs. */
export function looksSecret(value: string): boolean {
  return value.length >= MIN_SECRET_LENGTH && !NOT_SECRETS.has(value.toLowerCase());
}

function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
