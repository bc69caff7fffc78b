/**
 * A small, lenient frontmatter reader for agent files: `---` lines around `key: value` pairs, where
 * a value is a string (quotes optional), an inline list `[a, b]`, or a block list of `- item` lines;
 * `# comments` are ignored.
 * Anything else is an error with its line number (1-based, in the whole file).
 */

export type FrontmatterValue = string | string[];

export type Frontmatter =
  | { ok: true; fields: Record<string, { value: FrontmatterValue; line: number }>; body: string }
  | { ok: false; line: number; message: string };

export function parseFrontmatter(text: string): Frontmatter {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---')
    return { ok: false, line: 1, message: 'expected a frontmatter block starting with "---"' };
  const fields: Record<string, { value: FrontmatterValue; line: number }> = {};
  let list: string[] | undefined;
  for (let i = 1; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = i + 1;
    if (raw.trim() === '---') return { ok: true, fields, body: lines.slice(i + 1).join('\n') };
    if (raw.trim() === '' || raw.trim().startsWith('#')) continue;
    const item = /^\s+-\s*(.*)$/.exec(raw) ?? /^-\s+(.*)$/.exec(raw);
    if (item) {
      if (!list) return { ok: false, line, message: 'a "- item" line must follow a "key:" line' };
      list.push(unquote(withoutComment(item[1]!.trim())));
      continue;
    }
    const pair = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:\s*(.*)$/.exec(raw);
    if (!pair)
      return { ok: false, line, message: `expected "key: value", got ${JSON.stringify(raw.slice(0, 60))}` };
    const key = pair[1]!;
    const value = withoutComment(pair[2]!.trim());
    if (value === '') {
      list = [];
      fields[key] = { value: list, line };
      continue;
    }
    list = undefined;
    if (value.startsWith('[')) {
      if (!value.endsWith(']')) return { ok: false, line, message: `unclosed list for "${key}"` };
      const inner = value.slice(1, -1).trim();
      fields[key] = {
        value: inner === '' ? [] : inner.split(',').map((part) => unquote(part.trim())),
        line,
      };
      continue;
    }
    fields[key] = { value: unquote(value), line };
  }
  return { ok: false, line: lines.length, message: 'the frontmatter block is not closed with "---"' };
}

/** `value   # note` → `value` (a `#` inside quotes stays). */
function withoutComment(value: string): string {
  if (value.startsWith('"') || value.startsWith("'")) return value;
  return value.replace(/\s+#.*$/, '').replace(/^#.*$/, '');
}

function unquote(value: string): string {
  if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0])
    return value.slice(1, -1);
  return value;
}
