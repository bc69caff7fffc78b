/**
 * `allowUnconfined` patterns read as a shell reads the line. A pattern's own text is the person's
 * (an exact pattern allows exactly that line); what a `*` stands for may only be plain words:
 * never `;`, `&&`, `||`, `|`, `&`, a subshell or brace, a newline, and never a redirection unless
 * the caller says its target is fine (inside the root). A line the scanner cannot be sure of
 * (command or process substitution, backticks, `$'…'`, a here-document, a comment, an open quote,
 * a control character) matches only an exact pattern. Pure: the caller judges redirection targets.
 */

/** One redirection (`> out.log`, `2>>err`, `<in`): where it is in the line and its target. */
export interface Redirection {
  start: number;
  end: number;
  /** The target as the shell opens it; undefined when it is not plain text (`$X`, `~`, a glob). */
  target?: string;
}

export interface CommandScan {
  /** Per UTF-16 index of the line: whether a `*` may stand for that character. */
  free: boolean[];
  /** File redirections (not yet free: the caller frees the ones whose target it accepts). */
  redirections: Redirection[];
}

class Unsure extends Error {}

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;
const SPECIAL_PARAMETER = /[0-9?#@*$!-]/;
const OPERATOR = new Set([';', '&', '|', '(', ')', '{', '}']);
const BLANK = new Set([' ', '\t']);
/** Characters a redirection's target word ends at (unquoted). */
const WORD_END = new Set([' ', '\t', ';', '&', '|', '(', ')', '<', '>']);

/** Any control character but tab (a newline or CR is a command separator to a shell). */
function isControl(char: string): boolean {
  const code = char.charCodeAt(0);
  return (code < 0x20 && char !== '\t') || code === 0x7f;
}

/** The scan of `line`, or undefined when some part of it is not sure (see the module comment). */
export function scanCommandLine(line: string): CommandScan | undefined {
  try {
    return new Scanner(line).scan();
  } catch (error) {
    if (error instanceof Unsure) return undefined;
    throw error;
  }
}

class Scanner {
  private readonly free: boolean[];
  private readonly redirections: Redirection[] = [];
  private i = 0;

  constructor(private readonly line: string) {
    this.free = new Array<boolean>(line.length).fill(true);
    for (const char of line) if (isControl(char)) throw new Unsure();
  }

  scan(): CommandScan {
    const { line } = this;
    let wordStart = true;
    while (this.i < line.length) {
      const char = line[this.i]!;
      if (BLANK.has(char)) {
        this.i++;
        wordStart = true;
        continue;
      }
      if (char === '#' && wordStart) throw new Unsure();
      if (char === '<' || char === '>' || (wordStart && this.fdBeforeRedirect())) {
        this.redirection();
        wordStart = true;
        continue;
      }
      if (OPERATOR.has(char)) {
        this.free[this.i++] = false;
        wordStart = true;
        continue;
      }
      this.wordPart();
      wordStart = false;
    }
    return { free: this.free, redirections: this.redirections };
  }

  /** `2>`: digits at a word start, right before `<` or `>`. */
  private fdBeforeRedirect(): boolean {
    const match = /^\d+[<>]/.exec(this.line.slice(this.i, this.i + 12));
    return match !== null;
  }

  /** One character (or quoted run, escape, expansion) of a word; appends its literal value. */
  private wordPart(value?: { text: string; plain: boolean }): void {
    const { line } = this;
    const char = line[this.i]!;
    if (char === '\\') {
      if (this.i + 1 >= line.length) throw new Unsure();
      if (value) value.text += line[this.i + 1];
      this.i += 2;
    } else if (char === "'") {
      const end = line.indexOf("'", this.i + 1);
      if (end < 0) throw new Unsure();
      if (value) value.text += line.slice(this.i + 1, end);
      this.i = end + 1;
    } else if (char === '"') {
      this.i++;
      for (;;) {
        if (this.i >= line.length) throw new Unsure();
        const inner = line[this.i]!;
        if (inner === '"') break;
        if (inner === '`') throw new Unsure();
        if (inner === '$') {
          this.dollar(true);
          if (value) value.plain = false;
          continue;
        }
        if (inner === '\\' && this.i + 1 < line.length && '$`"\\'.includes(line[this.i + 1]!)) {
          if (value) value.text += line[this.i + 1];
          this.i += 2;
          continue;
        }
        if (value) value.text += inner;
        this.i++;
      }
      this.i++;
    } else if (char === '`') {
      throw new Unsure();
    } else if (char === '$') {
      this.dollar(false);
      if (value) value.plain = false;
    } else {
      // Unquoted: a glob or `~` makes a target something other than its text.
      if (value) {
        if ('*?[~{}'.includes(char)) value.plain = false;
        value.text += char;
      }
      this.i++;
    }
  }

  /** `$NAME`, `${NAME}`, `$1`, `$?` are sure (no command runs); `$(`, `${x:-…}`, `$'…'` are not. */
  private dollar(quoted: boolean): void {
    const { line } = this;
    const next = line[this.i + 1];
    // Inside double quotes `$"` and `$'` are a `$` and a quote; outside they are bash's quoting.
    if (next === undefined || (quoted && (next === '"' || next === "'"))) {
      this.i++;
      return;
    }
    if (NAME_START.test(next)) {
      this.i += 2;
      while (this.i < line.length && NAME_CHAR.test(line[this.i]!)) this.i++;
      return;
    }
    if (next === '{') {
      const match = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}/.exec(line.slice(this.i));
      if (!match) throw new Unsure();
      this.i += match[0].length;
      return;
    }
    if (SPECIAL_PARAMETER.test(next)) {
      this.i += 2;
      return;
    }
    if ('(\'"[`'.includes(next)) throw new Unsure();
    // A lone `$` before a blank, `/`, `:` … is the character itself.
    this.i++;
  }

  /** `[n]>`, `>>`, `>|`, `<`, `<>`, `[n]>&m`: not free; a here-document or `<(`/`>(` is not sure. */
  private redirection(): void {
    const { line } = this;
    const start = this.i;
    while (/\d/.test(line[this.i]!)) this.i++;
    const op = line[this.i]!;
    this.i++;
    const after = line[this.i];
    if (after === '(') throw new Unsure();
    if (op === '<' && after === '<') throw new Unsure();
    let duplicate = false;
    if ((op === '>' && (after === '>' || after === '|')) || (op === '<' && after === '>')) this.i++;
    else if (after === '&') {
      this.i++;
      duplicate = true;
    }
    while (BLANK.has(line[this.i] ?? '')) this.i++;
    const value = { text: '', plain: true };
    const targetStart = this.i;
    while (this.i < line.length && !WORD_END.has(line[this.i]!)) this.wordPart(value);
    if (this.i === targetStart) throw new Unsure();
    for (let at = start; at < this.i; at++) this.free[at] = false;
    // `2>&1`, `>&-`: moves or closes a descriptor, opens no file.
    if (duplicate && value.plain && /^(\d+|-)$/.test(value.text)) {
      for (let at = start; at < this.i; at++) this.free[at] = true;
      return;
    }
    this.redirections.push({ start, end: this.i, ...(value.plain ? { target: value.text } : {}) });
  }
}

/**
 * Whether `pattern` (`*` = any run of free characters, the rest literal) matches the whole of
 * `line` given which characters a `*` may stand for. Dynamic programming over both: O(n·m).
 */
export function matchesFreely(pattern: string, line: string, free: readonly boolean[]): boolean {
  // reach[j]: the pattern so far can end just before line[j].
  let reach = new Array<boolean>(line.length + 1).fill(false);
  reach[0] = true;
  for (const char of pattern) {
    const next = new Array<boolean>(line.length + 1).fill(false);
    if (char === '*') {
      for (let j = 0; j <= line.length; j++)
        next[j] = reach[j]! || (j > 0 && next[j - 1]! && free[j - 1] === true);
    } else {
      // By code unit: a pattern character outside the BMP is two units here, both compared.
      for (let j = 0; j < line.length; j++)
        if (reach[j] && line.startsWith(char, j)) next[j + char.length] = true;
    }
    reach = next;
    if (!reach.includes(true)) return false;
  }
  return reach[line.length]!;
}

/**
 * Whether one of `patterns` lets `command` run unconfined: an exact pattern (no `*`) is that line
 * and nothing else; a pattern with `*` needs a line the scanner is sure of, each `*` standing for
 * free characters only. `targetFine` frees a redirection whose target it accepts.
 */
export async function commandPatternAllows(
  patterns: readonly string[],
  command: string,
  targetFine: (target: string) => Promise<boolean>,
): Promise<boolean> {
  const line = command.trim();
  const trimmed = patterns.map((pattern) => pattern.trim());
  if (trimmed.some((pattern) => !pattern.includes('*') && pattern === line)) return true;
  const starred = trimmed.filter((pattern) => pattern.includes('*'));
  if (starred.length === 0) return false;
  const scan = scanCommandLine(line);
  if (!scan) return false;
  for (const redirection of scan.redirections) {
    if (redirection.target === undefined || !(await targetFine(redirection.target))) continue;
    for (let at = redirection.start; at < redirection.end; at++) scan.free[at] = true;
  }
  return starred.some((pattern) => matchesFreely(pattern, line, scan.free));
}
