/**
 * A small, strict TOML reader for the subset Codex writes in `~/.codex/config.toml`: `[tables]`
 * and `[[arrays of tables]]`, bare/quoted/dotted keys, basic and literal strings (one-line and
 * multi-line), integers (with `_`, hex/octal/binary), floats, booleans, arrays and inline tables.
 * Dates/times are refused with the line (Codex writes none under `mcp_servers`). Anything it does
 * not understand is an error naming the line, never a guess.
 *
 * Behind `parseToml` only, so swapping in a full parser (e.g. `smol-toml`) is a one-file change.
 */

export type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}

export class TomlError extends Error {
  override readonly name = 'TomlError';
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}

export function parseToml(text: string): TomlTable {
  return new Reader(text.startsWith('\uFEFF') ? text.slice(1) : text).document();
}

const BARE_KEY = /[A-Za-z0-9_-]/;

class Reader {
  private at = 0;
  private readonly root: TomlTable = {};
  /** Tables opened by a `[header]` (may not be opened twice) and inline tables (closed for good). */
  private readonly defined = new Set<TomlTable>();
  private readonly sealed = new Set<TomlValue>();

  constructor(private readonly text: string) {}

  document(): TomlTable {
    let table = this.root;
    for (;;) {
      this.skipBlank();
      if (this.at >= this.text.length) return this.root;
      if (this.peek() === '[') table = this.header();
      else {
        this.keyValue(table);
        this.endOfLine();
      }
    }
  }

  private header(): TomlTable {
    const array = this.text.startsWith('[[', this.at);
    this.at += array ? 2 : 1;
    this.spaces();
    const keys = this.key();
    this.spaces();
    if (!this.text.startsWith(array ? ']]' : ']', this.at)) this.fail(`expected "${array ? ']]' : ']'}"`);
    this.at += array ? 2 : 1;
    this.endOfLine();
    const parent = this.descend(this.root, keys.slice(0, -1));
    const last = keys[keys.length - 1]!;
    const existing = parent[last];
    if (array) {
      if (existing === undefined) parent[last] = [];
      const list = parent[last];
      if (!Array.isArray(list) || this.sealed.has(list)) this.fail(`"${last}" is not an array of tables`);
      const table: TomlTable = {};
      list.push(table);
      this.defined.add(table);
      return table;
    }
    if (existing === undefined) parent[last] = {};
    const table = parent[last];
    if (!isTable(table) || this.sealed.has(table) || this.defined.has(table))
      this.fail(`table [${keys.join('.')}] is defined twice`);
    this.defined.add(table);
    return table;
  }

  /** Walks (creating) the tables of a dotted key; the last element of an array of tables counts. */
  private descend(from: TomlTable, keys: readonly string[]): TomlTable {
    let table = from;
    for (const key of keys) {
      if (table[key] === undefined) table[key] = {};
      let next = table[key];
      if (Array.isArray(next) && !this.sealed.has(next)) next = next[next.length - 1]!;
      if (!isTable(next) || this.sealed.has(next)) this.fail(`"${key}" is not a table`);
      table = next;
    }
    return table;
  }

  private keyValue(table: TomlTable): void {
    const keys = this.key();
    this.spaces();
    if (this.peek() !== '=') this.fail('expected "=" after a key');
    this.at++;
    this.spaces();
    const value = this.value();
    const parent = this.descend(table, keys.slice(0, -1));
    const last = keys[keys.length - 1]!;
    if (Object.hasOwn(parent, last)) this.fail(`key "${keys.join('.')}" is defined twice`);
    parent[last] = value;
  }

  private key(): string[] {
    const keys: string[] = [];
    for (;;) {
      this.spaces();
      const c = this.peek();
      if (c === '"') keys.push(this.basicString());
      else if (c === "'") keys.push(this.literalString());
      else {
        const start = this.at;
        while (this.at < this.text.length && BARE_KEY.test(this.text[this.at]!)) this.at++;
        if (start === this.at) this.fail('expected a key');
        keys.push(this.text.slice(start, this.at));
      }
      this.spaces();
      if (this.peek() !== '.') return keys;
      this.at++;
    }
  }

  private value(): TomlValue {
    const c = this.peek();
    if (c === '"') return this.text.startsWith('"""', this.at) ? this.multiBasic() : this.basicString();
    if (c === "'") return this.text.startsWith("'''", this.at) ? this.multiLiteral() : this.literalString();
    if (c === '[') return this.array();
    if (c === '{') return this.inlineTable();
    if (this.text.startsWith('true', this.at) && !BARE_KEY.test(this.text[this.at + 4] ?? '')) {
      this.at += 4;
      return true;
    }
    if (this.text.startsWith('false', this.at) && !BARE_KEY.test(this.text[this.at + 5] ?? '')) {
      this.at += 5;
      return false;
    }
    return this.number();
  }

  private number(): number {
    const match = /^[+-]?[0-9A-Za-z_.:+-]+/.exec(this.text.slice(this.at));
    if (!match) this.fail('expected a value');
    const raw = match[0];
    if (/^\d{4}-\d{2}-\d{2}/.test(raw) || /^\d{2}:\d{2}/.test(raw))
      this.fail('dates and times are not supported here');
    const body = raw.replace(/(?<=[0-9A-Fa-f])_(?=[0-9A-Fa-f])/g, '');
    let value: number;
    if (/^[+-]?(inf|nan)$/.test(body))
      value = body.endsWith('inf') ? (body.startsWith('-') ? -Infinity : Infinity) : NaN;
    else if (/^0x[0-9A-Fa-f]+$/.test(body)) value = Number.parseInt(body.slice(2), 16);
    else if (/^0o[0-7]+$/.test(body)) value = Number.parseInt(body.slice(2), 8);
    else if (/^0b[01]+$/.test(body)) value = Number.parseInt(body.slice(2), 2);
    else if (/^[+-]?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(body)) value = Number(body);
    else return this.fail(`"${raw}" is not a value (strings need quotes)`);
    this.at += raw.length;
    return value;
  }

  private array(): TomlValue[] {
    this.at++;
    const items: TomlValue[] = [];
    for (;;) {
      this.skipBlank();
      if (this.peek() === ']') break;
      items.push(this.value());
      this.skipBlank();
      if (this.peek() === ',') this.at++;
      else if (this.peek() !== ']') this.fail('expected "," or "]" in an array');
    }
    this.at++;
    this.sealed.add(items);
    return items;
  }

  private inlineTable(): TomlTable {
    this.at++;
    const table: TomlTable = {};
    this.spaces();
    if (this.peek() === '}') {
      this.at++;
      this.sealed.add(table);
      return table;
    }
    for (;;) {
      this.keyValue(table);
      this.spaces();
      const c = this.peek();
      this.at++;
      if (c === '}') break;
      if (c !== ',') this.fail('expected "," or "}" in an inline table');
    }
    this.sealed.add(table);
    return table;
  }

  private basicString(): string {
    this.at++;
    let out = '';
    for (;;) {
      const c = this.text[this.at];
      if (c === undefined || c === '\n') this.fail('unterminated string');
      this.at++;
      if (c === '"') return out;
      out += c === '\\' ? this.escape() : c;
    }
  }

  private multiBasic(): string {
    this.at += 3;
    if (this.peek() === '\n') this.at++;
    else if (this.text.startsWith('\r\n', this.at)) this.at += 2;
    let out = '';
    for (;;) {
      if (this.at >= this.text.length) this.fail('unterminated multi-line string');
      if (this.text.startsWith('"""', this.at) && !this.text.startsWith('""""', this.at)) {
        this.at += 3;
        return out;
      }
      const c = this.text[this.at++]!;
      if (c !== '\\') out += c;
      else if (/^[ \t]*\r?\n/.test(this.text.slice(this.at))) {
        // A line-ending backslash drops the newline and the whitespace that follows it.
        while (/\s/.test(this.text[this.at] ?? '')) this.at++;
      } else out += this.escape();
    }
  }

  private literalString(): string {
    const end = this.text.indexOf("'", this.at + 1);
    const newline = this.text.indexOf('\n', this.at + 1);
    if (end < 0 || (newline >= 0 && newline < end)) this.fail('unterminated string');
    const value = this.text.slice(this.at + 1, end);
    this.at = end + 1;
    return value;
  }

  private multiLiteral(): string {
    let start = this.at + 3;
    if (this.text[start] === '\n') start++;
    else if (this.text.startsWith('\r\n', start)) start += 2;
    const end = this.text.indexOf("'''", start);
    if (end < 0) this.fail('unterminated multi-line string');
    this.at = end + 3;
    return this.text.slice(start, end);
  }

  private escape(): string {
    const c = this.text[this.at++];
    const simple: Record<string, string> = {
      b: '\b',
      t: '\t',
      n: '\n',
      f: '\f',
      r: '\r',
      '"': '"',
      '\\': '\\',
    };
    if (c !== undefined && simple[c] !== undefined) return simple[c]!;
    if (c === 'u' || c === 'U') {
      const length = c === 'u' ? 4 : 8;
      const hex = this.text.slice(this.at, this.at + length);
      if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== length) this.fail(`invalid \\${c} escape`);
      this.at += length;
      const code = Number.parseInt(hex, 16);
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) this.fail(`invalid \\${c} escape`);
      return String.fromCodePoint(code);
    }
    return this.fail(`invalid escape "\\${c ?? ''}"`);
  }

  /** After a value or header: spaces, an optional comment, then a newline or the end. */
  private endOfLine(): void {
    this.spaces();
    if (this.peek() === '#') this.skipComment();
    if (this.at >= this.text.length) return;
    if (this.peek() === '\n') this.at++;
    else if (this.text.startsWith('\r\n', this.at)) this.at += 2;
    else this.fail(`unexpected "${this.peek()}" after a value`);
  }

  private skipBlank(): void {
    for (;;) {
      this.spaces();
      const c = this.peek();
      if (c === '#') this.skipComment();
      else if (c === '\n' || c === '\r') this.at++;
      else return;
    }
  }

  private skipComment(): void {
    while (this.at < this.text.length && this.text[this.at] !== '\n') this.at++;
  }

  private spaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.at++;
  }

  private peek(): string | undefined {
    return this.text[this.at];
  }

  private fail(message: string): never {
    const line = this.text.slice(0, this.at).split('\n').length;
    throw new TomlError(message, line);
  }
}

function isTable(value: TomlValue | undefined): value is TomlTable {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
