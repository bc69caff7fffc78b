/**
 * A lenient reader of a SKILL.md's YAML frontmatter (no YAML dependency): `key: value` scalars
 * (plain, single- or double-quoted), inline lists `[a, b]`, block lists (`- a`), folded/literal
 * block scalars (`>` / `|`) and one level of nested map (`metadata:`). What it cannot read is an
 * error with its line (1-based, in SKILL.md); the body is everything after the closing `---`.
 */

export type FrontValue = string | string[] | Record<string, string>;

export interface Frontmatter {
  fields: Record<string, FrontValue>;
  /** Line (1-based) of each key, for error messages. */
  lines: Record<string, number>;
  body: string;
}

export class FrontmatterError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

export function parseFrontmatter(text: string): Frontmatter {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return { fields: {}, lines: {}, body: text };
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  if (end < 0) throw new FrontmatterError('frontmatter has no closing ---', 1);
  const fields: Record<string, FrontValue> = {};
  const keyLines: Record<string, number> = {};
  let i = 1;
  while (i < end) {
    const raw = lines[i]!;
    const lineNo = i + 1;
    if (raw.trim() === '' || raw.trim().startsWith('#')) {
      i++;
      continue;
    }
    const match = /^([A-Za-z_][\w-]*)\s*:(.*)$/.exec(raw);
    if (!match || /^\s/.test(raw))
      throw new FrontmatterError(`cannot read "${raw.trim()}" (expected key: value)`, lineNo);
    const key = match[1]!;
    // `key:   # a comment` then an indented block: the comment is not the value.
    const rest = match[2]!.trim().replace(/^#.*$/, '');
    keyLines[key] = lineNo;
    i++;
    // Indented lines that follow belong to this key.
    const block: string[] = [];
    while (i < end && (lines[i]!.trim() === '' || /^\s/.test(lines[i]!) || /^-\s/.test(lines[i]!))) {
      block.push(lines[i]!);
      i++;
    }
    while (block.length > 0 && block[block.length - 1]!.trim() === '') block.pop();
    fields[key] = readValue(rest, block, lineNo);
  }
  return {
    fields,
    lines: keyLines,
    body: lines
      .slice(end + 1)
      .join('\n')
      .replace(/^\n+/, ''),
  };
}

function readValue(rest: string, block: string[], lineNo: number): FrontValue {
  if (rest === '|' || rest === '>' || /^[|>][-+]?$/.test(rest)) {
    const indent = Math.min(...block.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
    const text = block.map((l) => l.slice(indent));
    return rest.startsWith('|') ? text.join('\n') : text.join(' ').replace(/\s+/g, ' ').trim();
  }
  if (rest === '' && block.length === 0) return '';
  if (rest === '') {
    const items = block.filter((l) => l.trim() !== '');
    if (items.every((l) => /^\s*-\s?/.test(l)))
      return items.map((l) => scalar(l.replace(/^\s*-\s?/, ''), lineNo));
    const map: Record<string, string> = {};
    for (const line of items) {
      const pair = /^\s*([^:]+?)\s*:\s*(.*)$/.exec(line);
      if (!pair) throw new FrontmatterError(`cannot read "${line.trim()}" (expected key: value)`, lineNo);
      map[pair[1]!] = scalar(pair[2]!, lineNo);
    }
    return map;
  }
  if (rest.startsWith('[')) {
    if (!rest.endsWith(']')) throw new FrontmatterError('a list [ ... ] is not closed on its line', lineNo);
    const inner = rest.slice(1, -1).trim();
    return inner === '' ? [] : inner.split(',').map((item) => scalar(item, lineNo));
  }
  // A plain scalar may continue on indented lines (YAML folds them with spaces).
  return [scalar(rest, lineNo), ...block.map((l) => l.trim())].filter((s) => s !== '').join(' ');
}

function scalar(raw: string, lineNo: number): string {
  // A comment after a quoted value (`'text' # why`) is not part of it.
  const value = raw.trim().replace(/^((["']).*\2)\s+#[^"']*$/, '$1');
  if (value.startsWith('"')) {
    if (!value.endsWith('"') || value.length < 2)
      throw new FrontmatterError('a "quoted" value is not closed', lineNo);
    try {
      return JSON.parse(value) as string;
    } catch {
      return value.slice(1, -1);
    }
  }
  if (value.startsWith("'")) {
    if (!value.endsWith("'") || value.length < 2)
      throw new FrontmatterError("a 'quoted' value is not closed", lineNo);
    return value.slice(1, -1).replaceAll("''", "'");
  }
  // A trailing comment is not part of a plain value.
  return value.replace(/\s+#.*$/, '');
}
